/**
 * The brute-force reference the recall ranking tests compare POST /v1/recall against: a
 * wallet of varied memories, every live one scored directly from its rows in the database
 * (scoreMemory), and the comparison of the API's ranking, scores and signals with it.
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Embedder } from "../../../../worker/embed/embedder";
import { fmix32, LocalEmbedder } from "../../../../worker/embed/local";
import { OpenAiEmbedder } from "../../../../worker/embed/openai";
import type { CandidateRow } from "../../../../worker/recall/candidates";
import { type Scored, scoreMemory, type VectorScale } from "../../../../worker/recall/scoring";
import { BGE_MODEL, bgeEndpoint, bgeWallet } from "../../../bge-worker";
import { userIdOf, withDb } from "../../../db";
import { ids, type Json, newWallet, sorted, type Wallet } from "../../../helpers";
import { recall, recomputed } from "../fixtures";

const DAY = 86_400_000;

const BF_QUERY_WORDS = ["coffee", "roast", "morning", "schedule", "kitchen", "espresso"];
const BF_OTHER_WORDS = [
  "garden",
  "tomato",
  "invoice",
  "guitar",
  "marathon",
  "spanish",
  "budget",
  "rocket",
  "violin",
  "harbor",
  "lantern",
  "pepper",
  "glacier",
  "canyon",
  "meadow",
  "falcon",
  "copper",
  "velvet",
  "island",
  "thunder",
  "orchard",
  "pebble",
  "saddle",
  "quartz",
  "bridge",
  "candle",
  "walnut",
  "anchor",
  "prairie",
  "maple",
  "beacon",
  "cobalt",
];
const TYPES = ["general", "observation", "project", "decision", "preference", "correction"];

interface BfMemory {
  id: string;
  live: boolean;
}

interface BfFixture {
  w: Wallet;
  memories: BfMemory[];
  relations: Array<[string, string]>;
}

/**
 * `size` memories sharing 0-4 of the query's words, with varied importance, types, pinning,
 * namespaces, access counts and ages (set with SQL), some relations, and two deleted
 * memories (one of them related to live ones).
 */
async function bruteForceFixture(size: number, w: Wallet): Promise<BfFixture> {
  const items: Array<Record<string, unknown>> = [];
  for (let i = 0; i < size; i++) {
    const shared = BF_QUERY_WORDS.filter((_, j) => (i + j) % 6 < i % 5);
    const others = [0, 1, 2, 3, 4, 5, 6].map(
      (k) => BF_OTHER_WORDS[fmix32(i * 131 + k * 7919 + 17) % 32] as string,
    );
    const words = [...shared, ...others];
    items.push({
      content: `Note ${i}: ${words.join(" ")} entry`,
      importance: Math.round(((i * 37) % 11) * 10) / 100,
      memory_type: TYPES[i % 6],
      pinned: i % 7 === 3,
      namespace: i % 4 === 0 ? "other" : "default",
      immutable: i % 9 === 5,
      // Word lists, not facts: ranking is measured over all of them (docs/knowledge-updates.md).
      detect_updates: false,
    });
  }
  const storedIds = await w.storeMany(items);
  const memories: BfMemory[] = storedIds.map((id) => ({ id, live: true }));
  const at = (i: number) => memories[i]?.id as string;

  const relations: Array<[string, string]> = [];
  const rel = async (a: number, b: number, type = "related_to") => {
    await w.relate(at(a), at(b), type);
    relations.push([at(a), at(b)]);
  };
  await rel(1, 2);
  await rel(1, 2, "supports");
  await rel(3, 1);
  await rel(5, 6);
  await rel(7, 5);
  await rel(8, 5, "derived_from");
  await rel(10, 11);
  await rel(12, 10);
  await rel(13, 14);
  await rel(20, 21, "contradicts");
  await rel(22, 20);

  // Delete two memories: 21 has relations, so 20's count drops by one.
  for (const i of [21, 30]) {
    const res = await w.del(`/v1/memories/${at(i)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    (memories[i] as BfMemory).live = false;
  }

  await withDb(async (db) => {
    const userId = await userIdOf(db, w);
    for (const [i, m] of memories.entries()) {
      const ageDays = (i * 13) % 97;
      const idleDays = Math.min(ageDays, (i * 5) % 41);
      const accessCount = (i * 3) % 16;
      await db.execute(sql`
        UPDATE memories SET
          created_at = now() - make_interval(secs => ${ageDays * 86400 + i * 17}),
          occurred_at = now() - make_interval(secs => ${ageDays * 86400 + i * 17}),
          accessed_at = now() - make_interval(secs => ${idleDays * 86400 + i * 11}),
          access_count = ${accessCount}
        WHERE id = ${m.id} AND user_id = ${userId}`);
    }
  });
  return { w, memories, relations };
}

interface Reference {
  id: string;
  input: Parameters<typeof scoreMemory>[0];
}

/** Every live memory of the wallet with its raw signals, read straight from the tables. */
async function referenceRows(
  fx: BfFixture,
  query: string,
  embedder: Embedder,
): Promise<Reference[]> {
  const { vectors } = await embedder.embed([query]);
  const v = `[${(vectors[0] ?? []).join(",")}]`;
  const liveIds = new Set(fx.memories.filter((m) => m.live).map((m) => m.id));
  const relationCount = (id: string) =>
    fx.relations.filter(([s, t]) => (s === id && liveIds.has(t)) || (t === id && liveIds.has(s)))
      .length;
  // The columns the score reads, as recall's own statement returns them, and the lexemes.
  type Row = Pick<
    CandidateRow,
    "id" | "importance" | "memory_type" | "pinned" | "access_count" | "created_at" | "accessed_at"
  > & { vector_sim: number | string; present: string[]; lex: string[] };
  const rows = await withDb(async (db) => {
    const userId = await userIdOf(db, fx.w);
    const res = await db.execute<Row>(sql`
      WITH qlex AS (
        SELECT coalesce((array_agg(DISTINCT lexeme))[1:64], '{}') AS lex
        FROM unnest(to_tsvector('english', ${query}))
      )
      SELECT m.id, m.importance, m.memory_type, m.pinned, m.access_count, m.created_at,
        m.accessed_at,
        CASE WHEN m.embedding_model = ${embedder.model}
          THEN 1 - (m.embedding <=> ${v}::vector) ELSE 0 END AS vector_sim,
        ARRAY(SELECT l FROM unnest(qlex.lex) AS l WHERE m.search @@ quote_literal(l)::tsquery)
          AS present,
        qlex.lex AS lex
      FROM memories m CROSS JOIN qlex
      WHERE m.user_id = ${userId} AND m.deleted_at IS NULL
        AND (m.expires_at IS NULL OR m.expires_at > now())`);
    return res.rows;
  });
  // keyword: the IDF-weighted share of query lexemes present, document frequencies counted
  // over every live memory (the exact path scores the whole scope).
  const lexemes = rows[0]?.lex ?? [];
  const idf = new Map(
    lexemes.map((l) => {
      const df = rows.filter((r) => r.present.includes(l)).length;
      return [l, Math.log(1 + (rows.length - df + 0.5) / (df + 0.5))];
    }),
  );
  const idfTotal = [...idf.values()].reduce((a, b) => a + b, 0);
  const keywordOf = (r: Row) =>
    idfTotal > 0 ? r.present.reduce((a, l) => a + (idf.get(l) ?? 0), 0) / idfTotal : 0;
  expect(sorted(rows.map((r) => r.id))).toEqual(sorted([...liveIds]));
  return rows.map((r) => ({
    id: r.id,
    input: {
      vector: Number(r.vector_sim),
      keyword: keywordOf(r),
      importance: Number(r.importance),
      memoryType: r.memory_type,
      pinned: r.pinned,
      accessCount: Number(r.access_count),
      relationCount: relationCount(r.id),
      createdAt: new Date(r.created_at),
      accessedAt: new Date(r.accessed_at),
    },
  }));
}

/** Postgres's percentile_cont(0.5), the maximum and the count of the (clamped) cosines. */
function vectorScale(refs: Reference[]): VectorScale {
  const v = refs.map((r) => Math.min(1, Math.max(0, r.input.vector))).sort((a, b) => a - b);
  const at = (v.length - 1) / 2;
  const lo = v[Math.floor(at)] ?? 0;
  const hi = v[Math.ceil(at)] ?? 0;
  return {
    median: lo + (hi - lo) * (at - Math.floor(at)),
    best: v[v.length - 1] ?? 0,
    n: v.length,
  };
}

function rankReference(
  refs: Reference[],
  now: number,
  semantic: boolean,
): Array<{ id: string } & Scored> {
  const scale = semantic ? vectorScale(refs) : null;
  return refs
    .map((r) => ({ id: r.id, ...scoreMemory(r.input, now, scale) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** The suite's lexical Worker, or the Worker with production's model (bge-worker.ts). */
const BF_EMBEDDERS = {
  lexical: { wallet: () => newWallet(), embedder: (): Embedder => new LocalEmbedder() },
  bge: {
    wallet: () => bgeWallet(),
    embedder: (): Embedder => new OpenAiEmbedder({ baseUrl: bgeEndpoint(), model: BGE_MODEL }),
  },
};

/** The embedder a case runs with (BF_EMBEDDERS). */
export type EmbedderKind = keyof typeof BF_EMBEDDERS;

/** A case: [query, limit, memories stored, embedder]; two of the memories are deleted. */
export type RankingCase = [string, number, number, EmbedderKind];

/**
 * Recalls `query` with `limit` over a fresh fixture of `size` memories and expects exactly the
 * reference's ranking, with its scores and signals.
 */
export async function expectReferenceRanking(
  query: string,
  limit: number,
  size: number,
  kind: EmbedderKind,
) {
  const live = size - 2;
  const fx = await bruteForceFixture(size, BF_EMBEDDERS[kind].wallet());
  const refs = await referenceRows(fx, query, BF_EMBEDDERS[kind].embedder());
  expect(refs).toHaveLength(live);
  const before = Date.now();
  const body = await recall(fx.w, { query, limit });
  const after = Date.now();
  expect(body.memories).toHaveLength(Math.min(limit, live));

  // The API scored at its own clock: recover it from one memory's recency signal
  // (recency = exp(-age/30) from created_at), then score everything at that instant.
  const probe = body.memories.find((m: Json) => m._signals.recency < 0.999) ?? body.memories[0];
  const apiNow = new Date(probe.created_at).getTime() - 30 * Math.log(probe._signals.recency) * DAY;
  expect(apiNow).toBeGreaterThan(before - 1000);
  expect(apiNow).toBeLessThan(after + 1000);

  const reference = rankReference(refs, apiNow, kind === "bge");
  const expectedIds = reference.slice(0, limit).map((r) => r.id);
  const gotIds = ids(body);
  if (JSON.stringify(gotIds) !== JSON.stringify(expectedIds)) {
    const show = (list: string[]) =>
      list.map((id) => `${fx.memories.findIndex((m) => m.id === id)}`).join(",");
    throw new Error(
      `ranking differs\n  api:       ${show(gotIds)}\n  reference: ${show(expectedIds)}`,
    );
  }
  for (const [i, m] of body.memories.entries()) {
    const ref = reference[i] as { id: string } & Scored;
    expect(m.id).toBe(ref.id);
    expect(m.similarity).toBeCloseTo(ref.score, 9);
    expect(m._signals.vector).toBeCloseTo(ref.signals.vector, 9);
    expect(m._signals.keyword).toBeCloseTo(ref.signals.keyword, 12);
    expect(m._signals.recency).toBeCloseTo(ref.signals.recency, 9);
    expect(m._signals.base_importance).toBeCloseTo(ref.signals.base_importance, 12);
    expect(m._signals.context_importance).toBeCloseTo(ref.signals.context_importance, 9);
    expect(m._signals.relation_count).toBe(ref.signals.relation_count);
    expect(m._signals.type_decay).toBeCloseTo(ref.signals.type_decay, 9);
    expect(m.similarity).toBeCloseTo(recomputed(m), 12);
  }
  // The fixture really exercises the signals: relations, pinning, decay and keyword spread.
  const all = reference.map((r) => r.signals);
  expect(new Set(all.map((s) => s.keyword)).size).toBeGreaterThan(2);
  expect(all.some((s) => s.type_decay < 0.5)).toBe(true);
  expect(all.filter((s) => s.type_decay === 1).length).toBeGreaterThan(2);
  expect(Math.max(...all.map((s) => s.relation_count))).toBe(3);
}
