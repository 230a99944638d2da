/**
 * The quality part: evidence recall@k on LoCoMo or any dataset in its layout (REALTALK), the
 * same turns and questions given to each system in one run.
 *
 * - ours: one fresh wallet per conversation, turns stored through POST /v1/store/batch (100
 *   a call, metadata {dia_id, session}), questions asked through POST /v1/recall {query,
 *   limit: 10}; @1/@5/@10 come from the one list. The service may merge a turn into an
 *   existing memory (deduplication); the batch response maps every turn to the id it went to,
 *   and a returned memory counts for a turn only while its content still holds the turn's
 *   text (a merge that replaced the text loses the turn). After ingest the wallet's memories
 *   are read back to count merged turns and turns whose text is gone.
 * - Mem0: mem0-system.ts over ../systems/mem0.ts, in process, one user per conversation, one `add`
 *   per turn (metadata {dia_id, session}), `search` with topK 10.
 * - BM25 and exact cosine over the same embeddings: in process, as references.
 *
 * Recall latency is per question, end to end (HTTP for ours, an in-process call for the
 * others); ingest time is the time to store one conversation's turns.
 *
 * This file runs the part (bench/main.ts calls runLocomo); the rest of the folder, one job
 * a file so that none grows past a few hundred lines: the dataset is data.ts,
 * types.ts the shared shapes, ours-system.ts, mem0-system.ts and reference-systems.ts the
 * systems, evaluate.ts the scoring, tables.ts the printed tables.
 */

import { log, machine, type Table } from "../lib/report";
import { round1 } from "../lib/stats";
import type { EmbedServer } from "../systems/embed-server";
import type { BenchEmbedding } from "../systems/embedding";
import { loadMem0, mem0Version } from "../systems/mem0";
import { loadLocomo, sliceLocomo } from "./data";
import { evaluate } from "./evaluate";
import { mem0System } from "./mem0-system";
import { oursSystem } from "./ours-system";
import { bm25System, cosineSystem } from "./reference-systems";
import { locomoTables } from "./tables";
import { K, type System } from "./types";

export type { DedupOutcome, SystemReport } from "./types";

export interface LocomoOptions {
  path: string;
  /** --categories: the scored categories' names, for a dataset other than LoCoMo and REALTALK. */
  categories?: string;
  /** --hold-out: sample ids reported apart from the rest, as conversations not tuned on. */
  heldOut?: string[];
  /** --conversations and --questions: a slice of the dataset (data.ts: sliceLocomo). */
  slice?: { conversations?: number; questions?: number };
  baseUrl: string;
  embed?: EmbedServer;
  embedding: BenchEmbedding;
  useMem0: boolean;
}

export interface LocomoOutcome {
  tables: Table[];
  json: Record<string, unknown>;
}

export async function runLocomo(opts: LocomoOptions): Promise<LocomoOutcome> {
  const data = sliceLocomo(loadLocomo(opts.path, opts.categories), opts.slice ?? {});
  const heldOut = opts.heldOut ?? [];
  const ids = new Set(data.conversations.map((c) => c.sampleId));
  const unknown = heldOut.filter((id) => !ids.has(id));
  if (unknown.length > 0) {
    throw new Error(
      `--hold-out names no conversation of ${opts.path}: ${unknown.join(", ")} (it has ${[...ids].join(", ")})`,
    );
  }
  const turns = data.conversations.reduce((n, c) => n + c.turns.length, 0);
  const questions = data.conversations.reduce((n, c) => n + c.questions.length, 0);
  const named = data.categories.map((c) => `${c} ${data.profile.categories[c]}`).join(", ");
  log(
    `${data.profile.name}: ${data.conversations.length} conversations, ${turns} turns, ${questions} questions of categories ${named}` +
      ` (${data.evidenceRepaired} evidence ids repaired, ${data.evidenceDropped.length} dropped: ${data.evidenceDropped.join(", ") || "none"})`,
  );

  const systems: System[] = [oursSystem(opts.baseUrl)];
  let mem0Info: Record<string, unknown> | undefined;
  if (opts.useMem0 && opts.embed) {
    const mod = await loadMem0();
    if (typeof mod === "string") log(`Mem0 skipped: ${mod}`);
    else {
      systems.push(await mem0System(mod, opts.embed));
      mem0Info = { package: "mem0ai", version: mem0Version(), where: "in process" };
    }
  }
  systems.push(bm25System(), cosineSystem(opts.embedding.embedder));

  opts.embed?.resetStats();
  const reports = await evaluate(systems, data);
  if (mem0Info && opts.embed) {
    // Only Mem0 uses the embedding endpoint (ours embeds inside the Worker).
    const s = opts.embed.stats;
    mem0Info.embed_server = { ...s, ms: round1(s.ms) };
    if (s.chatRequests > 0) throw new Error(`Mem0 called the language model ${s.chatRequests}×`);
  }

  return {
    tables: locomoTables(reports, data, turns, questions, opts.embedding.label, heldOut),
    json: {
      when: new Date().toISOString(),
      dataset: opts.path,
      dataset_name: data.profile.name,
      categories: Object.fromEntries(data.categories.map((c) => [c, data.profile.categories[c]])),
      held_out: heldOut,
      // A slice of the dataset (--conversations, --questions, --smoke): not its figures.
      slice: opts.slice?.conversations || opts.slice?.questions ? opts.slice : null,
      embedder: opts.embedding.label,
      k: K,
      machine: machine(),
      conversations: data.conversations.map((c) => ({
        sample_id: c.sampleId,
        turns: c.turns.length,
        questions: c.questions.length,
      })),
      evidence_repaired: data.evidenceRepaired,
      evidence_dropped: data.evidenceDropped,
      questions_without_evidence: data.questionsWithoutEvidence,
      mem0: mem0Info ?? null,
      systems: reports,
    },
  };
}
