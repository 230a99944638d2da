/**
 * The systems of the knowledge-update part, each given one item at a time: the first fact,
 * then fifteen distractors, then the second fact, then the question (limit K). Each answers
 * with its list as roles: which of its results is the first fact, the second or a distractor.
 *
 * - ours: a fresh wallet per item over HTTP (POST /v1/store, /v1/store/batch for the
 *   distractors, /v1/store, then /v1/recall), and afterwards the second memory's `supersedes`
 *   relations (GET /v1/memories/{id}/relations): whether the service linked the pair (what
 *   #45 is to do for an update, and must not do for a control) and any other such link.
 * - Mem0: the SDK in process (../systems/mem0.ts), one user per item, `add` with infer off.
 * - BM25 and exact cosine over the run's embeddings, in process, as references.
 */
import type { Embedder } from "../../worker/embed/embedder";
import { newWallet } from "../lib/http-client";
import { Bm25Index } from "../locomo/bm25";
import type { Mem0Store } from "../systems/mem0";

export const K = 10;

/** A result's place in the item: the first fact, the second, both (merged) or a distractor. */
export type Role = "first" | "second" | "both" | "distractor";

export interface Stored {
  first: string;
  distractors: string[];
  second: string;
  question: string;
}

export interface Answer {
  roles: Role[];
  /** The question's time: end to end over HTTP for ours, the call in process for the others. */
  ms: number;
  /** Ours only: a `supersedes` relation between the two facts, either way. */
  pairLinked?: boolean;
  /** Ours only: `supersedes` relations of the second fact to anything else. */
  strayLinks?: number;
}

export interface UpdateSystem {
  key: string;
  label: string;
  /** `tag` names the item (Mem0's user); a run with tag "warm-up" is not measured. */
  run(item: Stored, tag: string): Promise<Answer>;
}

interface Relation {
  source_id: string;
  target_id: string;
  relation_type: string;
}

export function oursSystem(baseUrl: string): UpdateSystem {
  return {
    key: "ours",
    label: "ours (HTTP)",
    async run(item) {
      const wallet = newWallet(baseUrl);
      const store = (content: string) =>
        wallet.call<{ id: string }>("POST", "/v1/store", { content }).then((r) => r.body.id);
      const first = await store(item.first);
      await wallet.call("POST", "/v1/store/batch", {
        memories: item.distractors.map((content) => ({ content })),
      });
      const second = await store(item.second);
      const res = await wallet.call<{ memories: Array<{ id: string }> }>("POST", "/v1/recall", {
        query: item.question,
        limit: K,
      });
      const links = await wallet.call<{ relations: Relation[] }>(
        "GET",
        `/v1/memories/${second}/relations?relation_type=supersedes`,
      );
      const pair = (r: Relation) =>
        (r.source_id === second && r.target_id === first) ||
        (r.source_id === first && r.target_id === second);
      return {
        roles: res.body.memories.map((m) => roleOf(m.id, first, second)),
        ms: res.ms,
        pairLinked: first !== second && links.body.relations.some(pair),
        strayLinks: links.body.relations.filter((r) => !pair(r)).length,
      };
    },
  };
}

export function mem0System(store: Mem0Store): UpdateSystem {
  return {
    key: "mem0",
    label: "Mem0 (in process)",
    async run(item, tag) {
      const user = `updates-${tag}`;
      const [first = ""] = await store.add(user, [item.first]);
      await store.add(user, item.distractors);
      const [second = ""] = await store.add(user, [item.second]);
      const t0 = performance.now();
      const results = await store.search(user, item.question, K);
      const ms = performance.now() - t0;
      return { roles: results.map((r) => roleOf(r.id, first, second)), ms };
    },
  };
}

/** The texts in stored order: the first fact at 0, the second last. */
function texts(item: Stored): string[] {
  return [item.first, ...item.distractors, item.second];
}

function roleOfIndex(i: number, count: number): Role {
  return i === 0 ? "first" : i === count - 1 ? "second" : "distractor";
}

export function bm25System(): UpdateSystem {
  return {
    key: "bm25",
    label: "BM25 (in process)",
    async run(item) {
      const all = texts(item);
      const t0 = performance.now();
      const index = new Bm25Index();
      for (const t of all) index.add(t);
      const order = index.search(item.question, K);
      return {
        roles: order.map((i) => roleOfIndex(i, all.length)),
        ms: performance.now() - t0,
      };
    },
  };
}

/** Exact cosine over the run's embeddings; a text's vector is computed once per run. */
export function cosineSystem(embedder: Embedder): UpdateSystem {
  const cache = new Map<string, number[]>();
  const vectors = async (list: string[]): Promise<number[][]> => {
    const missing = [...new Set(list.filter((t) => !cache.has(t)))];
    if (missing.length > 0) {
      const { vectors: got } = await embedder.embed(missing);
      for (const [i, t] of missing.entries()) cache.set(t, got[i] ?? []);
    }
    return list.map((t) => cache.get(t) ?? []);
  };
  return {
    key: "cosine",
    label: "cosine only (in process)",
    async run(item) {
      const all = texts(item);
      const docs = await vectors(all);
      const t0 = performance.now();
      const [q = []] = (await embedder.embed([item.question])).vectors;
      const scored = docs.map((v, i) => {
        let dot = 0;
        for (let d = 0; d < v.length; d++) dot += (v[d] ?? 0) * (q[d] ?? 0);
        return { i, dot };
      });
      scored.sort((a, b) => b.dot - a.dot || a.i - b.i);
      return {
        roles: scored.slice(0, K).map((s) => roleOfIndex(s.i, all.length)),
        ms: performance.now() - t0,
      };
    },
  };
}

function roleOf(id: string, first: string, second: string): Role {
  if (id === first && id === second) return "both";
  if (id === first) return "first";
  if (id === second) return "second";
  return "distractor";
}
