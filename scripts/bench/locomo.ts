/**
 * The quality part: LoCoMo evidence recall@k, the same turns and questions given to each
 * system in one run.
 *
 * - ours: one fresh wallet per conversation, turns stored through POST /v1/store/batch (100
 *   a call, metadata {dia_id, session}), questions asked through POST /v1/recall {query,
 *   limit: 10}; @1/@5/@10 come from the one list. The service may merge a turn into an
 *   existing memory (deduplication); the batch response maps every turn to the id it went to,
 *   and a returned memory counts for a turn only while its content still holds the turn's
 *   text (a merge that replaced the text loses the turn). After ingest the wallet's memories
 *   are read back to count merged turns and turns whose text is gone.
 * - Mem0: mem0.ts, in process, one user per conversation, one `add` per turn (metadata
 *   {dia_id, session}), `search` with topK 10.
 * - BM25 and exact cosine over the same embeddings: in process, as references.
 *
 * Recall latency is per question, end to end (HTTP for ours, an in-process call for the
 * others); ingest time is the time to store one conversation's turns.
 */
import type { Embedder } from "../../worker/embed/embedder";
import { Bm25Index } from "./bm25";
import type { EmbedServer } from "./embed-server";
import type { BenchEmbedding } from "./embedding";
import { newWallet } from "./http-client";
import {
  CATEGORIES,
  CATEGORY_NAMES,
  type Conversation,
  evidenceHit,
  evidenceRecall,
  type LocomoData,
  loadLocomo,
} from "./locomo-data";
import { createMem0, loadMem0, mem0Version } from "./mem0";
import { fmt, log, machine, pctCell, ratio, type Table } from "./report";
import { type LatencySummary, round1, summary, timingMeans } from "./stats";

const K = 10;
const BATCH = 100;

/** What one system returns for one question: each result as the dia_ids it stands for. */
interface Answer {
  ms: number;
  ranked: string[][];
  /** Ours only: the recall signals and access count of each result, for diagnosis. */
  signals?: unknown[];
  /** Ours only: the Server-Timing header. */
  timing?: string | null;
}

interface Prepared {
  ingestMs: number;
  memories: number;
  merged: number;
  /** Ours only: what deduplication did to the turns (see readBack). */
  dedup?: DedupOutcome;
  /** Ours only: mean Server-Timing of the store calls. */
  ingestTiming?: Record<string, number>;
  ask(query: string): Promise<Answer>;
}

interface System {
  key: string;
  label: string;
  prepare(conv: Conversation): Promise<Prepared>;
}

interface QuestionResult {
  sample_id: string;
  category: number;
  question: string;
  evidence: string[];
  recall: { 1: number; 5: number; 10: number };
  /** 1 when at least one evidence turn is among the first k results, else 0. */
  hit: { 1: number; 5: number; 10: number };
  ms: number;
  top: string[][];
  signals?: unknown[];
}

type Figures = Record<"r1" | "r5" | "r10" | "h1" | "h5" | "h10", number>;

export interface SystemReport {
  key: string;
  label: string;
  overall: Figures;
  by_category: Record<number, Figures & { questions: number }>;
  recall_latency_ms: LatencySummary;
  ingest: Array<{
    sample_id: string;
    turns: number;
    memories: number;
    merged: number;
    ms: number;
    server_timing_ms?: Record<string, number>;
    dedup?: DedupOutcome;
  }>;
  ingest_ms_total: number;
  /** Ours only: mean Server-Timing of the recall calls. */
  recall_server_timing_ms?: Record<string, number>;
  questions: QuestionResult[];
}

export interface LocomoOptions {
  path: string;
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
  const data = loadLocomo(opts.path);
  const turns = data.conversations.reduce((n, c) => n + c.turns.length, 0);
  const questions = data.conversations.reduce((n, c) => n + c.questions.length, 0);
  log(
    `LoCoMo: ${data.conversations.length} conversations, ${turns} turns, ${questions} questions of categories 1-4` +
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
    tables: locomoTables(reports, data, turns, questions, opts.embedding.label),
    json: {
      when: new Date().toISOString(),
      dataset: opts.path,
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

/**
 * Systems take turns: each stores a conversation in turn, then each question is put to every
 * system before the next question, so that load from elsewhere on the machine falls on all
 * of them alike.
 */
async function evaluate(systems: System[], data: LocomoData): Promise<SystemReport[]> {
  const results = systems.map((): QuestionResult[] => []);
  const timings = systems.map((): Array<string | null> => []);
  const ingest = systems.map((): SystemReport["ingest"] => []);
  for (const conv of data.conversations) {
    const prepared: Prepared[] = [];
    for (const [i, system] of systems.entries()) {
      const p = await system.prepare(conv);
      prepared.push(p);
      ingest[i]?.push({
        sample_id: conv.sampleId,
        turns: conv.turns.length,
        memories: p.memories,
        merged: p.merged,
        ms: round1(p.ingestMs),
        ...(p.ingestTiming ? { server_timing_ms: p.ingestTiming } : {}),
        ...(p.dedup ? { dedup: p.dedup } : {}),
      });
    }
    const askMs = systems.map(() => 0);
    for (const q of conv.questions) {
      for (const [i, p] of prepared.entries()) {
        const answer = await p.ask(q.question);
        askMs[i] = (askMs[i] ?? 0) + answer.ms;
        if (answer.timing !== undefined) timings[i]?.push(answer.timing);
        results[i]?.push({
          sample_id: conv.sampleId,
          category: q.category,
          question: q.question,
          evidence: q.evidence,
          recall: {
            1: evidenceRecall(q.evidence, answer.ranked, 1),
            5: evidenceRecall(q.evidence, answer.ranked, 5),
            10: evidenceRecall(q.evidence, answer.ranked, 10),
          },
          hit: {
            1: evidenceHit(q.evidence, answer.ranked, 1),
            5: evidenceHit(q.evidence, answer.ranked, 5),
            10: evidenceHit(q.evidence, answer.ranked, 10),
          },
          ms: round1(answer.ms),
          top: answer.ranked,
          ...(answer.signals ? { signals: answer.signals } : {}),
        });
      }
    }
    log(
      `${conv.sampleId}: ${conv.turns.length} turns, ${conv.questions.length} questions; ` +
        systems
          .map((s, i) => {
            const p = prepared[i];
            const merged = p?.merged ? ` (${p.merged} merged)` : "";
            return `${s.key} stored in ${((p?.ingestMs ?? 0) / 1000).toFixed(2)} s${merged}, answered in ${((askMs[i] ?? 0) / 1000).toFixed(2)} s`;
          })
          .join("; "),
    );
  }
  return systems.map((system, i) => {
    const r = report(system, results[i] ?? [], ingest[i] ?? []);
    if (timings[i]?.length) r.recall_server_timing_ms = timingMeans(timings[i] ?? []);
    return r;
  });
}

function report(
  system: System,
  results: QuestionResult[],
  ingest: SystemReport["ingest"],
): SystemReport {
  const mean = (rs: QuestionResult[], k: 1 | 5 | 10, of: "recall" | "hit" = "recall") =>
    rs.reduce((s, r) => s + r[of][k], 0) / rs.length;
  const agg = (rs: QuestionResult[]): Figures => ({
    r1: mean(rs, 1),
    r5: mean(rs, 5),
    r10: mean(rs, 10),
    h1: mean(rs, 1, "hit"),
    h5: mean(rs, 5, "hit"),
    h10: mean(rs, 10, "hit"),
  });
  return {
    key: system.key,
    label: system.label,
    overall: agg(results),
    by_category: Object.fromEntries(
      CATEGORIES.map((c) => {
        const rs = results.filter((r) => r.category === c);
        return [c, { ...agg(rs), questions: rs.length }];
      }),
    ),
    recall_latency_ms: summary(results.map((r) => r.ms)),
    ingest,
    ingest_ms_total: round1(ingest.reduce((s, i) => s + i.ms, 0)),
    questions: results,
  };
}

// ---------------------------------------------------------------- the systems

interface RecallBody {
  memories: Array<{
    id: string;
    content: string;
    access_count: number;
    _signals: Record<string, number>;
  }>;
}

interface TurnRef {
  diaId: string;
  content: string;
}

/** What deduplication did to one conversation's turns in our store. */
export interface DedupOutcome {
  /** Turns the store merged into an earlier memory (deduplicated: true). */
  merged: number;
  /** Turns whose text the memory they went to no longer holds. */
  text_lost: number;
  /** …of which questions name as evidence. */
  evidence_lost: number;
  /** A few memories that lost a turn: what they hold now and what they lost. */
  examples: Array<{ holds: string; lost: string }>;
}

/** Whether a memory's content still says a turn's text (case and spacing aside, as dedup). */
function holds(content: string, text: string): boolean {
  const norm = (t: string) => t.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  return norm(content).includes(norm(text));
}

function oursSystem(baseUrl: string): System {
  let warm = false;
  return {
    key: "ours",
    label: "ours (HTTP)",
    async prepare(conv) {
      if (!warm) {
        // A throwaway wallet, so that warming up leaves no access counts on the real ones.
        const w = newWallet(baseUrl);
        await w.call("POST", "/v1/store/batch", {
          memories: conv.turns.slice(0, 20).map((t) => ({ content: t.content })),
        });
        for (const q of conv.questions.slice(0, 10))
          await w.call("POST", "/v1/recall", { query: q.question, limit: K });
        warm = true;
      }
      const wallet = newWallet(baseUrl);
      const turnsOf = new Map<string, TurnRef[]>();
      let ingestMs = 0;
      let merged = 0;
      const timings: Array<string | null> = [];
      for (let i = 0; i < conv.turns.length; i += BATCH) {
        const chunk = conv.turns.slice(i, i + BATCH);
        const res = await wallet.call<{ ids: string[]; deduplicated_count: number }>(
          "POST",
          "/v1/store/batch",
          {
            memories: chunk.map((t) => ({
              content: t.content,
              metadata: { dia_id: t.diaId, session: t.session },
            })),
          },
        );
        ingestMs += res.ms;
        timings.push(res.timing);
        merged += res.body.deduplicated_count;
        res.body.ids.forEach((id, j) => {
          const turn = chunk[j];
          if (turn) turnsOf.set(id, [...(turnsOf.get(id) ?? []), turn]);
        });
      }
      const evidence = new Set(conv.questions.flatMap((q) => q.evidence));
      const dedup = await readBack(wallet, turnsOf, evidence, merged);
      return {
        ingestMs,
        memories: turnsOf.size,
        merged,
        dedup,
        ingestTiming: timingMeans(timings),
        async ask(query) {
          const res = await wallet.call<RecallBody>("POST", "/v1/recall", { query, limit: K });
          return {
            ms: res.ms,
            // A memory stands for the turns whose text it still holds.
            ranked: res.body.memories.map((m) =>
              (turnsOf.get(m.id) ?? [])
                .filter((t) => holds(m.content, t.content))
                .map((t) => t.diaId),
            ),
            signals: res.body.memories.map((m) => ({
              ...m._signals,
              access_count: m.access_count,
            })),
            timing: res.timing,
          };
        },
      };
    },
  };
}

/** Reads every memory of the wallet back and counts the turns whose text is gone. */
async function readBack(
  wallet: ReturnType<typeof newWallet>,
  turnsOf: Map<string, TurnRef[]>,
  evidence: Set<string>,
  merged: number,
): Promise<DedupOutcome> {
  const content = new Map<string, string>();
  for (let offset = 0; ; offset += 100) {
    const page = await wallet.call<{ memories: Array<{ id: string; content: string }> }>(
      "GET",
      `/v1/memories?limit=100&offset=${offset}`,
    );
    for (const m of page.body.memories) content.set(m.id, m.content);
    if (page.body.memories.length < 100) break;
  }
  const outcome: DedupOutcome = { merged, text_lost: 0, evidence_lost: 0, examples: [] };
  for (const [id, turns] of turnsOf) {
    const now = content.get(id) ?? "";
    for (const t of turns) {
      if (holds(now, t.content)) continue;
      outcome.text_lost += 1;
      if (evidence.has(t.diaId)) outcome.evidence_lost += 1;
      if (outcome.examples.length < 5) outcome.examples.push({ holds: now, lost: t.content });
    }
  }
  return outcome;
}

async function mem0System(
  mod: Exclude<Awaited<ReturnType<typeof loadMem0>>, string>,
  embed: EmbedServer,
): Promise<System> {
  // One Mem0 for every conversation, a user each: how an application would deploy it.
  const store = await createMem0(mod, embed);
  let warm = false;
  return {
    key: "mem0",
    label: "Mem0 (in process)",
    async prepare(conv) {
      if (!warm) {
        for (const t of conv.turns.slice(0, 20)) await store.add("warm-up", [t.content]);
        for (const q of conv.questions.slice(0, 10)) await store.search("warm-up", q.question, K);
        warm = true;
      }
      const userId = `locomo-${conv.sampleId}`;
      const diaIds = new Map<string, string[]>();
      const started = performance.now();
      for (const t of conv.turns) {
        const [id] = await store.add(userId, [t.content], { dia_id: t.diaId, session: t.session });
        if (id) diaIds.set(id, [t.diaId]);
      }
      return {
        ingestMs: performance.now() - started,
        memories: diaIds.size,
        merged: 0,
        async ask(query) {
          const t0 = performance.now();
          const results = await store.search(userId, query, K);
          const ms = performance.now() - t0;
          return { ms, ranked: results.map((r) => diaIds.get(r.id) ?? []) };
        },
      };
    },
  };
}

function bm25System(): System {
  return {
    key: "bm25",
    label: "BM25 (in process)",
    async prepare(conv) {
      const started = performance.now();
      const index = new Bm25Index();
      for (const t of conv.turns) index.add(t.content);
      return {
        ingestMs: performance.now() - started,
        memories: conv.turns.length,
        merged: 0,
        async ask(query) {
          const t0 = performance.now();
          const hits = index.search(query, K);
          const ms = performance.now() - t0;
          return { ms, ranked: hits.map((i) => [conv.turns[i]?.diaId ?? ""]) };
        },
      };
    },
  };
}

/** Exact cosine over the run's embeddings: what the vectors alone rank. */
function cosineSystem(embedder: Embedder): System {
  return {
    key: "cosine",
    label: "cosine only (in process)",
    async prepare(conv) {
      const started = performance.now();
      const { vectors } = await embedder.embed(conv.turns.map((t) => t.content));
      return {
        ingestMs: performance.now() - started,
        memories: conv.turns.length,
        merged: 0,
        async ask(query) {
          const t0 = performance.now();
          const [q = []] = (await embedder.embed([query])).vectors;
          const scored = vectors.map((v, i) => {
            let dot = 0;
            for (let d = 0; d < v.length; d++) dot += (v[d] ?? 0) * (q[d] ?? 0);
            return { i, dot };
          });
          scored.sort((a, b) => b.dot - a.dot || a.i - b.i);
          const ms = performance.now() - t0;
          return { ms, ranked: scored.slice(0, K).map((s) => [conv.turns[s.i]?.diaId ?? ""]) };
        },
      };
    },
  };
}

// ---------------------------------------------------------------- tables

function locomoTables(
  reports: SystemReport[],
  data: LocomoData,
  turns: number,
  questions: number,
  embedder: string,
): Table[] {
  const ours = reports.find((r) => r.key === "ours");
  const mem0 = reports.find((r) => r.key === "mem0");
  const overallRow = (r: SystemReport) => [
    r.label,
    pctCell(r.overall.r1),
    pctCell(r.overall.r5),
    pctCell(r.overall.r10),
    fmt(r.recall_latency_ms.p50, 2),
    fmt(r.recall_latency_ms.p95, 2),
    fmt(r.ingest_ms_total / 1000, 2),
    fmt(turns / (r.ingest_ms_total / 1000), 0),
  ];
  const overall: Table = {
    title: `LoCoMo evidence recall, ${data.conversations.length} conversations, ${turns} turns, ${questions} questions (categories 1-4), k = ${K}, embedder ${embedder}`,
    header: ["system", "R@1 %", "R@5 %", "R@10 %", "p50 ms", "p95 ms", "ingest s", "turns/s"],
    rows: reports.map(overallRow),
    notes: [
      "R@k: share of a question's evidence turns among the first k results, averaged over questions.",
      `Every system ranks with the same vectors: ${embedder}.`,
      "p50/p95: recall latency per question (ours over HTTP through wrangler dev; the others in process).",
      "ingest: storing every turn of the conversations (ours: POST /v1/store/batch, 100 a call; Mem0: add per turn, infer false).",
    ],
  };
  if (ours && mem0) {
    overall.rows.push([
      "ours / Mem0",
      ratio(ours.overall.r1, mem0.overall.r1),
      ratio(ours.overall.r5, mem0.overall.r5),
      ratio(ours.overall.r10, mem0.overall.r10),
      ratio(ours.recall_latency_ms.p50, mem0.recall_latency_ms.p50),
      ratio(ours.recall_latency_ms.p95, mem0.recall_latency_ms.p95),
      ratio(ours.ingest_ms_total, mem0.ingest_ms_total),
      ratio(1 / ours.ingest_ms_total, 1 / mem0.ingest_ms_total),
    ]);
  }
  const dedup = ours?.ingest.flatMap((i) => (i.dedup ? [i.dedup] : [])) ?? [];
  const merged = dedup.reduce((n, d) => n + d.merged, 0);
  if (ours) {
    const lost = dedup.reduce((n, d) => n + d.text_lost, 0);
    const evidenceLost = dedup.reduce((n, d) => n + d.evidence_lost, 0);
    overall.notes?.push(
      `ours: deduplication merged ${merged} turns into earlier memories; ${lost} turns' text is no longer held by their memory (${evidenceLost} of them evidence), and a memory counts for a turn only while it holds the turn's text.`,
    );
  }

  const header = ["system"];
  for (const c of CATEGORIES) header.push(`${c} R@1`, `${c} R@5`, `${c} R@10`);
  const catRow = (r: SystemReport) => [
    r.label,
    ...CATEGORIES.flatMap((c) => {
      const v = r.by_category[c];
      return [pctCell(v?.r1), pctCell(v?.r5), pctCell(v?.r10)];
    }),
  ];
  const byCategory: Table = {
    title: "LoCoMo evidence recall by category, %",
    header,
    rows: reports.map(catRow),
    notes: [
      `Categories: ${CATEGORIES.map((c) => `${c} ${CATEGORY_NAMES[c]} (${reports[0]?.by_category[c]?.questions ?? 0} questions)`).join(", ")}.`,
    ],
  };
  if (ours && mem0) {
    byCategory.rows.push([
      "ours / Mem0",
      ...CATEGORIES.flatMap((c) => {
        const a = ours.by_category[c];
        const b = mem0.by_category[c];
        return [ratio(a?.r1, b?.r1), ratio(a?.r5, b?.r5), ratio(a?.r10, b?.r10)];
      }),
    ]);
  }
  const hits: Table = {
    title: "LoCoMo hit@k, %: questions with at least one evidence turn among the first k results",
    header: ["system", "hit@1", "hit@5", "hit@10", ...CATEGORIES.map((c) => `${c} hit@5`)],
    rows: reports.map((r) => [
      r.label,
      pctCell(r.overall.h1),
      pctCell(r.overall.h5),
      pctCell(r.overall.h10),
      ...CATEGORIES.map((c) => pctCell(r.by_category[c]?.h5)),
    ]),
    notes: [
      "hit@k is what retrieval-only systems usually publish; R@k above asks for every evidence turn.",
    ],
  };
  return [overall, byCategory, hits];
}
