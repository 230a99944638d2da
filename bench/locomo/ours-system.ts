/**
 * Our service as a LoCoMo system, over HTTP: one fresh wallet per conversation, turns stored
 * through POST /v1/store/batch, questions asked through POST /v1/recall, and the wallet read
 * back after ingest to count what deduplication did. Split out of the former
 * bench/locomo/index.ts (index.ts says how the systems are compared).
 */
import { newWallet } from "../lib/http-client";
import { timingMeans } from "../lib/stats";
import { type DedupOutcome, K, type System, warmUpOnce } from "./types";

const BATCH = 100;

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

/** Whether a memory's content still says a turn's text (case and spacing aside, as dedup). */
function holds(content: string, text: string): boolean {
  const norm = (t: string) => t.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  return norm(content).includes(norm(text));
}

export function oursSystem(baseUrl: string): System {
  const warmUp = warmUpOnce(async (turns, questions) => {
    // A throwaway wallet, so that warming up leaves no access counts on the real ones.
    const w = newWallet(baseUrl);
    await w.call("POST", "/v1/store/batch", {
      memories: turns.map((t) => ({ content: t.content })),
    });
    for (const q of questions) await w.call("POST", "/v1/recall", { query: q.question, limit: K });
  });
  return {
    key: "ours",
    label: "ours (HTTP)",
    async prepare(conv) {
      await warmUp(conv);
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
