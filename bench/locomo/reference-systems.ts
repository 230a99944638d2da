/**
 * The in-process reference systems for LoCoMo: BM25 over the turns' words and exact cosine over
 * the run's embeddings, what keywords alone and vectors alone rank. Split out of the former
 * bench/locomo/index.ts.
 */
import type { Embedder } from "../../worker/embed/embedder";
import { Bm25Index } from "./bm25";
import { K, type System } from "./types";

/**
 * A system that ranks the turns in process: `index` builds its index of one conversation,
 * `rank` returns turn positions best first. Ingest and question times are measured alike.
 */
function inProcessSystem<I>(
  key: System["key"],
  label: string,
  index: (conv: Parameters<System["prepare"]>[0]) => Promise<I>,
  rank: (built: I, query: string) => Promise<number[]>,
): System {
  return {
    key,
    label,
    async prepare(conv) {
      const started = performance.now();
      const built = await index(conv);
      return {
        ingestMs: performance.now() - started,
        memories: conv.turns.length,
        merged: 0,
        async ask(query) {
          const t0 = performance.now();
          const order = await rank(built, query);
          const ms = performance.now() - t0;
          return { ms, ranked: order.slice(0, K).map((i) => [conv.turns[i]?.diaId ?? ""]) };
        },
      };
    },
  };
}

/** BM25 over the turns' words: what keywords alone rank. */
export function bm25System(): System {
  return inProcessSystem(
    "bm25",
    "BM25 (in process)",
    async (conv) => {
      const index = new Bm25Index();
      for (const t of conv.turns) index.add(t.content);
      return index;
    },
    async (index, query) => index.search(query, K),
  );
}

/** Exact cosine over the run's embeddings: what the vectors alone rank. */
export function cosineSystem(embedder: Embedder): System {
  return inProcessSystem(
    "cosine",
    "cosine only (in process)",
    async (conv) => (await embedder.embed(conv.turns.map((t) => t.content))).vectors,
    async (vectors, query) => {
      const [q = []] = (await embedder.embed([query])).vectors;
      const scored = vectors.map((v, i) => {
        let dot = 0;
        for (let d = 0; d < v.length; d++) dot += (v[d] ?? 0) * (q[d] ?? 0);
        return { i, dot };
      });
      scored.sort((a, b) => b.dot - a.dot || a.i - b.i);
      return scored.map((x) => x.i);
    },
  );
}
