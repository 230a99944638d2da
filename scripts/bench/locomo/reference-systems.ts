/**
 * The in-process reference systems for LoCoMo: BM25 over the turns' words and exact cosine over
 * the run's embeddings, what keywords alone and vectors alone rank. Split out of the former
 * scripts/bench/locomo.ts.
 */
import type { Embedder } from "../../../worker/embed/embedder";
import { Bm25Index } from "../bm25";
import { K, type System } from "./types";

export function bm25System(): System {
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
export function cosineSystem(embedder: Embedder): System {
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
