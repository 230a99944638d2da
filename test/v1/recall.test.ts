/**
 * POST /v1/recall: response shape, the score recomputed from the returned signals, limits and
 * validation, ranking quality on a lexical fixture, a brute-force reference ranking computed
 * straight from the database, filters applied before the candidate limit, live-only results,
 * access counting, relations, pinned and immutable memories.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connectDb, type Db } from "../../worker/db/client";
import type { Embedder } from "../../worker/embed/embedder";
import { LocalEmbedder } from "../../worker/embed/local";
import { OpenAiEmbedder } from "../../worker/embed/openai";
import { countTokens } from "../../worker/lib/tokens";
import { type Scored, scoreMemory, type VectorScale } from "../../worker/recall/scoring";
import { BGE_MODEL, bgeEndpoint, bgeWallet } from "../bge-worker";
import {
  expectError,
  getMemory,
  type Json,
  newWallet,
  request,
  signAuth,
  sleep,
  storeNew,
  type Wallet,
} from "../helpers";

const DAY = 86_400_000;
const SIGNAL_KEYS = [
  "base_importance",
  "context_importance",
  "effective_importance",
  "keyword",
  "recency",
  "relation_count",
  "type_decay",
  "vector",
];

const ids = (body: Json): string[] => body.memories.map((m: Json) => m.id);
const sorted = (list: string[]) => [...list].sort();

const dbEnv = env as unknown as { DATABASE_URL: string; NEON_WS_PROXY?: string };

/** A direct database connection for fixtures and reference queries, closed afterwards. */
async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = connectDb(dbEnv.DATABASE_URL, dbEnv.NEON_WS_PROXY || undefined);
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

async function userIdOf(db: Db, w: Wallet): Promise<string> {
  const res = await db.execute<{ id: string }>(
    sql`SELECT id FROM users WHERE wallet = ${w.address.toLowerCase()}`,
  );
  const id = res.rows[0]?.id;
  if (!id) throw new Error("wallet has no user row");
  return id;
}

async function recall(w: Wallet, body: Record<string, unknown>): Promise<Json> {
  const res = await w.post("/v1/recall", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Stores many memories (in batches of 100) and checks none was merged into another. */
async function storeMany(w: Wallet, items: Array<Record<string, unknown>>): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < items.length; i += 100) {
    const res = await w.post("/v1/store/batch", { memories: items.slice(i, i + 100) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.deduplicated_count).toBe(0);
    out.push(...(res.body.ids as string[]));
  }
  return out;
}

async function relate(w: Wallet, source: string, target: string, type = "related_to") {
  const res = await w.post(`/v1/memories/${source}/relations`, {
    target_id: target,
    relation_type: type,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** Polls until `ok` holds or ~2.5 s pass, and returns the last value. */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 50 && !ok(value); i++) {
    await sleep(50);
    value = await read();
  }
  return value;
}

/** The score the spec's formula gives for the signals a memory was returned with. */
function recomputed(m: Json): number {
  const s = m._signals;
  const hybrid = 0.55 * s.vector + 0.25 * s.keyword + 0.2 * s.recency;
  return hybrid * s.context_importance * Math.min(1 + 0.1 * m.access_count, 2) * s.type_decay;
}

function expectSortedBySimilarity(memories: Json[]) {
  for (let i = 1; i < memories.length; i++) {
    expect(memories[i - 1].similarity).toBeGreaterThanOrEqual(memories[i].similarity);
  }
}

describe("POST /v1/recall: response", () => {
  it("returns the documented shape, with query_tokens and the eight signals", async () => {
    const w = newWallet();
    const id = await storeNew(w, "The lighthouse keeper logs the weather every night at nine", {
      metadata: { source: "logbook", tags: ["coast", "weather"] },
      importance: 0.7,
      namespace: "shape",
      memory_type: "preference",
      session_id: "sess-1",
      agent_id: "agent-1",
      pinned: true,
    });
    const stored = await getMemory(w, id);
    const query = "when does the lighthouse keeper log the weather";
    const body = await recall(w, { query });
    expect(Object.keys(body).sort()).toEqual(["memories", "query_tokens"]);
    expect(body.query_tokens).toBeGreaterThan(0);
    expect(body.query_tokens).toBe(countTokens(query));
    expect(body.memories).toHaveLength(1);
    const m = body.memories[0];
    expect(m).toEqual({
      id,
      content: "The lighthouse keeper logs the weather every night at nine",
      similarity: expect.any(Number),
      metadata: { source: "logbook", tags: ["coast", "weather"] },
      tags: ["coast", "weather"],
      importance: 0.7,
      namespace: "shape",
      memory_type: "preference",
      session_id: "sess-1",
      agent_id: "agent-1",
      created_at: stored.created_at,
      access_count: 0,
      pinned: true,
      _signals: expect.any(Object),
    });
    expect(Object.keys(m._signals).sort()).toEqual(SIGNAL_KEYS);
    expect(m._signals.base_importance).toBeCloseTo(0.7, 6);
    expect(m._signals.effective_importance).toBeCloseTo(0.85, 6);
    expect(m._signals.relation_count).toBe(0);
    expect(m._signals.type_decay).toBe(1);
    expect(m._signals.keyword).toBeGreaterThan(0);
    expect(m._signals.vector).toBeGreaterThan(0);
    expect(m.similarity).toBeCloseTo(recomputed(m), 12);
  });

  it("null session_id / agent_id and empty metadata for a plain memory", async () => {
    const w = newWallet();
    const id = await storeNew(w, "Plain memory about penguins");
    const body = await recall(w, { query: "penguins" });
    expect(body.memories[0]).toMatchObject({
      id,
      metadata: {},
      tags: [],
      importance: 0.5,
      namespace: "default",
      memory_type: "general",
      session_id: null,
      agent_id: null,
      pinned: false,
      access_count: 0,
    });
    expect(body.memories[0].relations).toBeUndefined();
  });

  it("similarity is the spec's formula over the returned signals, sorted descending", async () => {
    const w = newWallet();
    await storeMany(w, [
      { content: "Solar panels on the barn roof produce power in summer", importance: 0.9 },
      {
        content: "The barn roof leaks when it rains heavily",
        importance: 0.2,
        memory_type: "observation",
      },
      {
        content: "Solar power inverter needs a firmware update",
        importance: 0.5,
        memory_type: "project",
      },
      {
        content: "Summer vacation plans include a trip to the coast",
        importance: 0.6,
        pinned: true,
      },
      { content: "Chickens roost in the barn at night", importance: 0, memory_type: "decision" },
      {
        content: "Invoice for the solar installation is paid",
        importance: 1,
        memory_type: "correction",
      },
    ]);
    // Give some memories access counts (and reset their decay timers) through a recall.
    const first = await recall(w, { query: "barn", limit: 2 });
    expect(first.memories).toHaveLength(2);
    for (const m of first.memories) {
      await eventually(
        () => getMemory(w, m.id),
        (x) => x.access_count === 1,
      );
    }
    const body = await recall(w, { query: "solar power on the barn roof in summer", limit: 100 });
    expect(body.memories).toHaveLength(6);
    expectSortedBySimilarity(body.memories);
    const counts = body.memories.map((m: Json) => m.access_count).sort();
    expect(counts).toEqual([0, 0, 0, 0, 1, 1]);
    for (const m of body.memories) {
      expect(m.similarity).toBeCloseTo(recomputed(m), 12);
      const s = m._signals;
      expect(s.effective_importance).toBeCloseTo(0.5 + 0.5 * s.base_importance, 12);
      expect(s.context_importance).toBeCloseTo(
        s.effective_importance * ((s.vector + s.keyword) / 2) ** 4,
        12,
      );
      expect(s.base_importance).toBeCloseTo(m.importance, 6);
      for (const key of ["vector", "keyword", "recency", "type_decay"]) {
        expect(s[key]).toBeGreaterThanOrEqual(0);
        expect(s[key]).toBeLessThanOrEqual(1);
      }
    }
    expect(body.memories[0].content).toBe("Solar panels on the barn roof produce power in summer");
  });
});

describe("POST /v1/recall: limits and validation", () => {
  it("limit defaults to 5 and accepts 1..100", async () => {
    const w = newWallet();
    await storeMany(
      w,
      ["red", "blue", "green", "yellow", "purple", "orange", "silver", "golden"].map((c) => ({
        content: `The ${c} umbrella hangs in the hallway closet`,
      })),
    );
    expect((await recall(w, { query: "umbrella hallway" })).memories).toHaveLength(5);
    expect((await recall(w, { query: "umbrella hallway", limit: 1 })).memories).toHaveLength(1);
    expect((await recall(w, { query: "umbrella hallway", limit: 7 })).memories).toHaveLength(7);
    expect((await recall(w, { query: "umbrella hallway", limit: 100 })).memories).toHaveLength(8);
  });

  it("rejects limit 0, 101, non-integers and strings with 422", async () => {
    const w = newWallet();
    for (const limit of [0, 101, -1, 2.5, "5"]) {
      expectError(
        await w.post("/v1/recall", { query: "anything", limit }),
        422,
        "VALIDATION_ERROR",
      );
    }
  });

  it("rejects a missing, empty, blank or non-string query with 422", async () => {
    const w = newWallet();
    expectError(await w.post("/v1/recall", {}), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: "" }), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: "   " }), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: 42 }), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: null }), 422, "VALIDATION_ERROR");
  });

  it("accepts a query of exactly 32,768 characters and rejects 32,769", async () => {
    const w = newWallet();
    const id = await storeNew(w, "Zebra crossings near the school are repainted each spring");
    const unit = "zebra crossing school paint ";
    const exact = unit.repeat(Math.ceil(32_768 / unit.length)).slice(0, 32_768);
    expect(exact).toHaveLength(32_768);
    const ok = await recall(w, { query: exact });
    expect(ids(ok)).toEqual([id]);
    expect(ok.query_tokens).toBe(countTokens(exact));
    expectError(await w.post("/v1/recall", { query: `${exact}z` }), 422, "VALIDATION_ERROR");
  });

  it("rejects bad min_similarity, filters and scope values with 422", async () => {
    const w = newWallet();
    const bad: Array<Record<string, unknown>> = [
      { min_similarity: -0.1 },
      { min_similarity: 1.1 },
      { min_similarity: "0.5" },
      { include_relations: "yes" },
      { namespace: "n".repeat(256) },
      { session_id: 5 },
      { filters: { tags: "not-an-array" } },
      { filters: { after: "yesterday" } },
      { filters: { before: "2024-13-45" } },
      { filters: { memory_type: "dream" } },
      { filters: { pinned: "true" } },
      { filters: { metadata: "x" } },
      { since: "not a date" },
      { until: 12 },
    ];
    for (const extra of bad) {
      const res = await w.post("/v1/recall", { query: "anything", ...extra });
      expectError(res, 422, "VALIDATION_ERROR");
    }
  });

  it("rejects a malformed JSON body with 422 and a missing wallet with 401", async () => {
    const w = newWallet();
    const raw = await request("POST", "/v1/recall", {
      rawBody: "{not json",
      headers: { "content-type": "application/json", "x-wallet-auth": await signAuth(w.account) },
    });
    expectError(raw, 422, "VALIDATION_ERROR");
    const array = await request("POST", "/v1/recall", {
      rawBody: JSON.stringify([{ query: "x" }]),
      headers: { "content-type": "application/json", "x-wallet-auth": await signAuth(w.account) },
    });
    expectError(array, 422, "VALIDATION_ERROR");
    expectError(await request("POST", "/v1/recall", { body: { query: "x" } }), 401, "UNAUTHORIZED");
  });

  it("queries full of punctuation, operators and quotes are plain text, not syntax", async () => {
    const w = newWallet();
    const id = await storeNew(w, "Notes from O'Reilly's book about regular expressions");
    const odd = [
      "O'Reilly's book",
      "'",
      "\\",
      "a\\b",
      "foo:bar",
      "foo:*",
      "a & b | !c",
      "<-> (x)",
      "???",
      "the and of",
      "🙂",
      "x.com/a?b=c",
      "e'abc'",
      "C:\\Users\\bob\\file.txt",
      "1e5 3.14 -7",
    ];
    for (const query of odd) {
      const res = await w.post("/v1/recall", { query });
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(ids(res.body)).toEqual([id]);
      const k = res.body.memories[0]._signals.keyword;
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThanOrEqual(1);
    }
    const apostrophes = await recall(w, { query: "O'Reilly's book" });
    expect(apostrophes.memories[0]._signals.keyword).toBe(1);
    const stopWords = await recall(w, { query: "the and of" });
    expect(stopWords.memories[0]._signals.keyword).toBe(0);
  });

  it("min_similarity drops memories scoring below it", async () => {
    const w = newWallet();
    const [a, b] = await storeMany(w, [
      { content: "Quantum entanglement experiment results from the lab" },
      { content: "Quantum entanglement lab experiment: results were inconclusive" },
      { content: "Groceries: milk, eggs, bread and apples" },
      { content: "The dentist appointment is on Thursday" },
    ]);
    const all = await recall(w, {
      query: "quantum entanglement experiment results lab",
      limit: 10,
    });
    expect(all.memories).toHaveLength(4);
    const strong = all.memories.filter((m: Json) => m.similarity >= 0.5);
    const weak = all.memories.filter((m: Json) => m.similarity < 0.3);
    expect(sorted(strong.map((m: Json) => m.id))).toEqual(sorted([a as string, b as string]));
    expect(weak).toHaveLength(2);
    const filtered = await recall(w, {
      query: "quantum entanglement experiment results lab",
      limit: 10,
      min_similarity: 0.5,
    });
    expect(sorted(ids(filtered))).toEqual(sorted([a as string, b as string]));
    for (const m of filtered.memories) expect(m.similarity).toBeGreaterThanOrEqual(0.5);
    const none = await recall(w, {
      query: "quantum entanglement experiment results lab",
      min_similarity: 1,
    });
    for (const m of none.memories) expect(m.similarity).toBeGreaterThanOrEqual(1);
  });
});

describe("POST /v1/recall: ranking quality (lexical embedder)", () => {
  const FACTS = [
    "The production database is PostgreSQL 16 hosted on Neon in the eu-central region",
    "Alice prefers dark mode in every editor and terminal she uses",
    "The quarterly budget review meeting happens on the first Monday of each quarter",
    "Our cat Miso is allergic to chicken, so buy salmon cat food",
    "Deploys to staging run automatically after every merge to the main branch",
    "The office wifi password is rotated on the first day of each month",
    "Bob's flight to Tokyo departs from Heathrow terminal 5 on March 3rd",
    "The public API rate limit is 100 requests per minute per wallet",
    "Sourdough starter needs feeding with flour and water twice a day",
    "The team decided to use Rust for the new image processing service",
    "Marathon training plan: long run on Sundays, intervals on Wednesdays",
    "Garden tomatoes need watering every evening during July heat waves",
    "Invoices must be sent to the accounting department before the 25th",
    "The guitar's low E string broke and needs replacing before the concert",
    "Learning Spanish with a tutor every Thursday over a video call",
  ];
  const QUESTIONS: Array<[string, number]> = [
    ["Which region hosts the production database?", 0],
    ["Does Alice prefer dark mode in her editor?", 1],
    ["What food is the cat allergic to?", 3],
    ["How do staging deploys get triggered after a merge?", 4],
    ["When is the office wifi password rotated?", 5],
    ["Which terminal does Bob's flight to Tokyo leave from?", 6],
    ["What is the API rate limit per minute?", 7],
    ["How often does the sourdough starter need feeding?", 8],
    ["Which language did the team decide on for image processing?", 9],
    ["Where do invoices for the accounting department go?", 12],
  ];

  it("puts the memory that answers each question first", async () => {
    const w = newWallet();
    const factIds = await storeMany(
      w,
      FACTS.map((content) => ({ content })),
    );
    for (const [question, answer] of QUESTIONS) {
      const body = await recall(w, { query: question, limit: 3 });
      expect(body.memories[0]?.content, question).toBe(FACTS[answer]);
      expect(body.memories[0]?.id).toBe(factIds[answer]);
      expectSortedBySimilarity(body.memories);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Brute force: the API's ranking against every live memory scored directly.

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

/** murmur3's finaliser: a well-spread deterministic choice of filler words. */
function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
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
      (k) => BF_OTHER_WORDS[mix32(i * 131 + k * 7919 + 17) % 32] as string,
    );
    const words = [...shared, ...others];
    items.push({
      content: `Note ${i}: ${words.join(" ")} entry`,
      importance: Math.round(((i * 37) % 11) * 10) / 100,
      memory_type: TYPES[i % 6],
      pinned: i % 7 === 3,
      namespace: i % 4 === 0 ? "other" : "default",
      immutable: i % 9 === 5,
    });
  }
  const storedIds = await storeMany(w, items);
  const memories: BfMemory[] = storedIds.map((id) => ({ id, live: true }));
  const at = (i: number) => memories[i]?.id as string;

  const relations: Array<[string, string]> = [];
  const rel = async (a: number, b: number, type = "related_to") => {
    await relate(w, at(a), at(b), type);
    relations.push([at(a), at(b)]);
  };
  await rel(1, 2);
  await rel(1, 2, "supports");
  await rel(3, 1);
  await rel(5, 6);
  await rel(7, 5);
  await rel(8, 5, "supersedes");
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
  type Row = {
    id: string;
    importance: number;
    memory_type: string;
    pinned: boolean;
    access_count: number;
    created_at: Date | string;
    accessed_at: Date | string;
    vector_sim: number | string;
    present: string[];
    lex: string[];
  };
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

/** Postgres's percentile_cont(0.5) and the maximum of the (clamped) cosines. */
function vectorScale(refs: Reference[]): VectorScale {
  const v = refs.map((r) => Math.min(1, Math.max(0, r.input.vector))).sort((a, b) => a - b);
  const at = (v.length - 1) / 2;
  const lo = v[Math.floor(at)] ?? 0;
  const hi = v[Math.ceil(at)] ?? 0;
  return { median: lo + (hi - lo) * (at - Math.floor(at)), best: v[v.length - 1] ?? 0 };
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

describe("POST /v1/recall: brute-force reference ranking", () => {
  // [query, limit, memories stored, embedder] — two of them are deleted by the fixture.
  const cases: Array<[string, number, number, keyof typeof BF_EMBEDDERS]> = [
    ["coffee roast schedule for the morning kitchen", 40, 40, "lexical"],
    ["espresso morning", 40, 40, "lexical"],
    ["coffee roast schedule for the morning kitchen", 8, 40, "lexical"],
    // Larger than the candidate pools (50 per index): a memory with a high access boost but
    // middling relevance must still rank where brute force puts it.
    ["coffee roast schedule for the morning kitchen", 10, 200, "lexical"],
    ["espresso morning", 10, 200, "lexical"],
    // A semantic model's cosine is rescaled by the query's median and best (scoring.ts).
    ["coffee roast schedule for the morning kitchen", 8, 40, "bge"],
    ["espresso morning", 10, 200, "bge"],
  ];
  it.each(cases)(
    "query %j with limit %i over %i memories (%s) ranks exactly like scoring every memory",
    async (query, limit, size, kind) => {
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
      const apiNow =
        new Date(probe.created_at).getTime() - 30 * Math.log(probe._signals.recency) * DAY;
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
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Filters are applied before the candidate limit.

const NOISE_QUERY = "kubernetes cluster autoscaling node pool upgrade";
const NOISE_WORDS = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "uniform",
  "victor",
  "whiskey",
  "xray",
  "yankee",
  "zulu",
  "amber",
  "basalt",
  "cedar",
  "dune",
];

/** Every noise text has the whole query plus four words no other noise text has together. */
function noiseContent(i: number): string {
  const a = Math.floor(i / 30);
  const b = i % 30;
  const words = [b, (b + 1 + a * 7) % 30, (b * 3 + a * 11 + 2) % 30, (b * 7 + a * 13 + 5) % 30];
  return `${NOISE_QUERY} runbook ${words.map((k) => NOISE_WORDS[k]).join(" ")} step ${i}`;
}

const GROUPS = {
  namespace: [
    "Grandma's lemon cake recipe uses three eggs and butter",
    "The violin lesson moved to Saturday afternoon",
    "Remember to renew the passport before summer travel",
  ],
  tags: [
    "Buy fresh basil and mozzarella for the caprese salad",
    "The library book about volcanoes is due next week",
    "Call the plumber about the leaking bathroom faucet",
  ],
  session: [
    "The hiking trail to the waterfall takes four hours",
    "Marco's birthday dinner is at the Italian restaurant",
    "The car insurance renewal letter arrived yesterday",
  ],
  agent: [
    "Paint the bedroom walls a soft shade of green",
    "The chess tournament starts at ten in the morning",
    "Order new running shoes in size forty-three",
  ],
  decision: [
    "We chose the blue logo variant for the brochure",
    "The family agreed to adopt a rescue dog in spring",
    "Dinner guests get vegetarian lasagna instead of fish",
  ],
  pinned: [
    "Emergency contact is Aunt Rosa at the downtown clinic",
    "The spare house key hides under the ceramic frog",
    "Allergic reaction to penicillin noted by the doctor",
  ],
  metadata: [
    "The telescope eyepiece needs a lens cleaning cloth",
    "Sunflower seeds sprout faster in warm damp soil",
    "The bakery on Elm street sells rye bread on Fridays",
  ],
  early: [
    "The old bicycle chain squeaks and needs oil",
    "Winter coats were donated to the shelter",
    "The piano tuner visits twice a year",
  ],
  late: [
    "The museum exhibit on ancient Egypt closes in May",
    "Knitting a scarf with merino wool for Lena",
    "The cinema shows silent films on Tuesday nights",
  ],
};
type Group = keyof typeof GROUPS;

interface FilterFixture {
  w: Wallet;
  groups: Record<Group, string[]>;
  noise: string[];
  earlyCreated: string;
  lateCreated: string;
}

/**
 * 120 memories in namespace "noise" that match the query strongly, and nine groups of three
 * that do not match it at all, each selected by exactly one filter. "early" is stored before
 * the noise and "late" after everything else.
 */
async function filterFixture(): Promise<FilterFixture> {
  const w = newWallet();
  const groups = {} as Record<Group, string[]>;
  groups.early = await storeMany(
    w,
    GROUPS.early.map((content) => ({ content })),
  );
  await sleep(30);
  const noise = await storeMany(
    w,
    Array.from({ length: 120 }, (_, i) => ({
      content: noiseContent(i),
      namespace: "noise",
      importance: 1,
    })),
  );
  await sleep(30);
  const fields: Record<Exclude<Group, "early" | "late">, Record<string, unknown>> = {
    namespace: { namespace: "target" },
    tags: { tags: ["needle"] },
    session: { session_id: "s-target" },
    agent: { agent_id: "a-target" },
    decision: { memory_type: "decision" },
    pinned: { pinned: true },
    metadata: { metadata: { project: "apollo", level: 2 } },
  };
  const middle = Object.keys(fields) as Array<keyof typeof fields>;
  const middleIds = await storeMany(
    w,
    middle.flatMap((g) => GROUPS[g].map((content) => ({ content, importance: 0, ...fields[g] }))),
  );
  for (const [k, g] of middle.entries()) groups[g] = middleIds.slice(k * 3, k * 3 + 3);
  await sleep(30);
  groups.late = await storeMany(
    w,
    GROUPS.late.map((content) => ({ content })),
  );
  const earlyCreated = (await getMemory(w, groups.early[2] as string)).created_at as string;
  const lateCreated = (await getMemory(w, groups.late[0] as string)).created_at as string;
  const noiseCreated = (await getMemory(w, noise[0] as string)).created_at as string;
  const middleCreated = (await getMemory(w, middleIds[0] as string)).created_at as string;
  // Preconditions of the date filters: the batches have distinct (millisecond) timestamps.
  expect(Date.parse(noiseCreated)).toBeGreaterThan(Date.parse(earlyCreated));
  expect(Date.parse(middleCreated)).toBeGreaterThan(Date.parse(noiseCreated));
  expect(Date.parse(lateCreated)).toBeGreaterThan(Date.parse(middleCreated));
  return { w, groups, noise, earlyCreated, lateCreated };
}

describe("POST /v1/recall: filters apply before the candidate limit", () => {
  it("each filter returns exactly its three weak matches, never a short page", async () => {
    const fx = await filterFixture();
    const { w, groups } = fx;

    // Without a filter the noise dominates: none of the targets makes the first 50.
    const unfiltered = await recall(w, { query: NOISE_QUERY, limit: 50 });
    expect(unfiltered.memories).toHaveLength(50);
    const noiseSet = new Set(fx.noise);
    for (const m of unfiltered.memories) expect(noiseSet.has(m.id)).toBe(true);

    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      ["namespace", { namespace: "target" }, groups.namespace],
      ["tags", { filters: { tags: ["needle"] } }, groups.tags],
      ["session_id", { session_id: "s-target" }, groups.session],
      ["agent_id", { agent_id: "a-target" }, groups.agent],
      ["memory_type", { filters: { memory_type: "decision" } }, groups.decision],
      ["pinned", { filters: { pinned: true } }, groups.pinned],
      ["metadata", { filters: { metadata: { project: "apollo" } } }, groups.metadata],
      ["filters.before", { filters: { before: fx.earlyCreated } }, groups.early],
      ["until", { until: fx.earlyCreated }, groups.early],
      ["filters.after", { filters: { after: fx.lateCreated } }, groups.late],
      ["since", { since: fx.lateCreated }, groups.late],
    ];
    for (const [name, filter, expected] of cases) {
      const page = await recall(w, { query: NOISE_QUERY, limit: 3, ...filter });
      expect(sorted(ids(page)), name).toEqual(sorted(expected));
      const wide = await recall(w, { query: NOISE_QUERY, limit: 20, ...filter });
      expect(sorted(ids(wide)), `${name} (limit 20)`).toEqual(sorted(expected));
      for (const m of wide.memories) {
        expect(m._signals.keyword, name).toBe(0);
      }
    }
  });

  it("combined filters intersect and a filter matching nothing returns an empty page", async () => {
    const fx = await filterFixture();
    const { w, groups } = fx;
    const both = await recall(w, {
      query: NOISE_QUERY,
      namespace: "noise",
      filters: { after: fx.lateCreated },
    });
    expect(both.memories).toEqual([]);
    const tagged = await recall(w, {
      query: NOISE_QUERY,
      limit: 10,
      filters: { tags: ["needle"], memory_type: "general" },
    });
    expect(sorted(ids(tagged))).toEqual(sorted(groups.tags));
    const metaTags = await recall(w, {
      query: NOISE_QUERY,
      limit: 10,
      filters: { metadata: { tags: ["needle"] } },
    });
    expect(sorted(ids(metaTags))).toEqual(sorted(groups.tags));
    const noisePage = await recall(w, { query: NOISE_QUERY, limit: 3, namespace: "noise" });
    expect(noisePage.memories).toHaveLength(3);
    for (const m of noisePage.memories) expect(fx.noise).toContain(m.id);
    const nothing = await recall(w, { query: NOISE_QUERY, namespace: "nowhere" });
    expect(nothing.memories).toEqual([]);
    expect(nothing.query_tokens).toBeGreaterThan(0);
  });
});

describe("POST /v1/recall: above 2,000 memories, candidates come from the indexes", () => {
  const BULK_WORDS = "amber basil cedar delta ember fjord garnet harbor indigo jasper kelp lagoon"
    .split(" ")
    .flatMap((a) => ["north", "south", "east", "west", "upper", "lower"].map((b) => `${a}${b}`));
  const bulkText = (i: number) =>
    Array.from({ length: 9 }, (_, k) => BULK_WORDS[mix32(i * 977 + k * 131) % BULK_WORDS.length])
      .concat(`item${i}`)
      .join(" ");

  /**
   * 2,110 memories: 2,060 tagged "bulk" (more than EXACT_SCAN_MAX, so recall takes the HNSW,
   * full-text and most-accessed candidates) and 50 untagged ones that match the query best.
   * Seeded through the data layer (2,000 API stores would dominate the suite's run time);
   * the needle goes through the API, which also creates the wallet.
   */
  async function largeFixture() {
    const w = newWallet();
    const needle = await storeNew(w, "zeppelin quartz observatory ledger for the winter solstice", {
      tags: ["bulk"],
    });
    const embedder = new LocalEmbedder();
    const rows: Array<{ content: string; tags: string[] }> = [];
    for (let i = 0; i < 2059; i++) rows.push({ content: bulkText(i), tags: ["bulk"] });
    for (let i = 0; i < 50; i++)
      rows.push({ content: `zeppelin quartz observatory ledger copy ${i} solstice`, tags: [] });
    await withDb(async (db) => {
      const userId = await userIdOf(db, w);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const { vectors } = await embedder.embed(chunk.map((r) => r.content));
        const values = chunk.map(
          (r, j) =>
            sql`(${userId}, ${r.content}, ${`{${r.tags.join(",")}}`}::text[], ${`[${(vectors[j] ?? []).join(",")}]`}::vector,
              ${embedder.model}, md5(${r.content}))`,
        );
        await db.execute(sql`INSERT INTO memories
          (user_id, content, tags, embedding, embedding_model, content_hash)
          VALUES ${sql.join(values, sql`, `)}`);
      }
    });
    return { w, needle };
  }

  it("finds the best match and applies filters before the limit", async () => {
    const { w, needle } = await largeFixture();
    const query = "zeppelin quartz observatory ledger solstice";

    // Unfiltered: the untagged copies and the needle are the top matches.
    const all = await recall(w, { query, limit: 20 });
    expect(all.memories).toHaveLength(20);
    for (const m of all.memories) expect(m.content).toMatch(/zeppelin quartz observatory/);

    // Filtered to "bulk" (2,060 memories in scope): the needle first, then a full page of
    // bulk memories, none of the better-matching untagged copies.
    const bulk = await recall(w, { query, limit: 30, filters: { tags: ["bulk"] } });
    expect(bulk.memories).toHaveLength(30);
    expect(bulk.memories[0].id).toBe(needle);
    for (const m of bulk.memories) expect(m.tags).toContain("bulk");
    const scores = bulk.memories.map((m: Json) => m.similarity);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // A bulk memory is found by its own words, ahead of everything else.
    const own = await recall(w, { query: bulkText(1234), limit: 5 });
    expect(own.memories[0].content).toBe(bulkText(1234));
  });
});

describe("POST /v1/recall: only the caller's live memories", () => {
  it("never returns deleted memories or another wallet's", async () => {
    const a = newWallet();
    const b = newWallet();
    const text = "The secret rendezvous point is the old oak tree by the river";
    const kept = await storeNew(
      a,
      "Secret rendezvous fallback: the stone bridge on the river road",
    );
    const gone = await storeNew(a, text);
    const theirs = await storeNew(b, text);
    expect(sorted(ids(await recall(a, { query: text, limit: 10 })))).toEqual(sorted([kept, gone]));
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);
    const after = await recall(a, { query: text, limit: 10 });
    expect(ids(after)).toEqual([kept]);
    const bulkGone = await storeNew(a, "Rendezvous backup plan: meet at the train station clock");
    expect((await a.del("/v1/memories", { ids: [bulkGone] })).status).toBe(200);
    expect(ids(await recall(a, { query: "rendezvous train station clock", limit: 10 }))).toEqual([
      kept,
    ]);
    const forB = await recall(b, { query: text, limit: 10 });
    expect(ids(forB)).toEqual([theirs]);
    const emptyWallet = newWallet();
    expect((await recall(emptyWallet, { query: text })).memories).toEqual([]);
  });

  it("stops returning a memory once it expires", async () => {
    const w = newWallet();
    const forever = await storeNew(w, "Parking permit number for the north garage is 4471");
    const soon = await storeNew(w, "Temporary parking code for the north garage is 9902", {
      expires_at: new Date(Date.now() + 2000).toISOString(),
    });
    const before = await recall(w, { query: "north garage parking", limit: 10 });
    expect(sorted(ids(before))).toEqual(sorted([forever, soon]));
    await sleep(2500);
    const after = await recall(w, { query: "north garage parking", limit: 10 });
    expect(ids(after)).toEqual([forever]);
  });
});

describe("POST /v1/recall: access counting", () => {
  it("increments access_count by exactly one for each returned memory only", async () => {
    const w = newWallet();
    const [hit1, hit2, miss1, miss2] = await storeMany(w, [
      { content: "Hummingbird feeder needs fresh nectar every three days" },
      { content: "Hummingbird nest spotted in the lilac bush" },
      { content: "Tax return documents are in the blue folder" },
      { content: "The snow tires are stored in the garage loft" },
    ]);
    const before = await getMemory(w, hit1 as string);
    expect(before.access_count).toBe(0);
    const body = await recall(w, { query: "hummingbird feeder nest", limit: 2 });
    expect(sorted(ids(body))).toEqual(sorted([hit1 as string, hit2 as string]));
    for (const m of body.memories) expect(m.access_count).toBe(0);

    for (const id of [hit1, hit2] as string[]) {
      const m = await eventually(
        () => getMemory(w, id),
        (x) => x.access_count >= 1,
      );
      expect(m.access_count).toBe(1);
      expect(Date.parse(m.accessed_at)).toBeGreaterThan(Date.parse(before.accessed_at));
    }
    await sleep(300);
    for (const id of [hit1, hit2] as string[])
      expect((await getMemory(w, id)).access_count).toBe(1);
    for (const id of [miss1, miss2] as string[]) {
      const m = await getMemory(w, id);
      expect(m.access_count).toBe(0);
      expect(m.accessed_at).toBe(m.created_at);
    }

    // A second recall counts again, and the response shows the count before it.
    const again = await recall(w, { query: "hummingbird feeder nest", limit: 2 });
    for (const m of again.memories) expect(m.access_count).toBe(1);
    for (const id of [hit1, hit2] as string[]) {
      const m = await eventually(
        () => getMemory(w, id),
        (x) => x.access_count >= 2,
      );
      expect(m.access_count).toBe(2);
    }
    expect((await getMemory(w, miss1 as string)).access_count).toBe(0);
  });

  it("a recall that returns nothing changes nothing", async () => {
    const w = newWallet();
    const id = await storeNew(w, "Lone memory in the default namespace", { namespace: "solo" });
    const body = await recall(w, { query: "lone memory", namespace: "elsewhere" });
    expect(body.memories).toEqual([]);
    await sleep(300);
    expect((await getMemory(w, id)).access_count).toBe(0);
  });
});

describe("POST /v1/recall: relations, pinned and immutable memories", () => {
  it("include_relations lists each memory's relations with live other ends", async () => {
    const w = newWallet();
    const [x, y, z, gone] = (await storeMany(w, [
      { content: "Project Falcon launch checklist approved by the board" },
      { content: "Board meeting minutes from the spring session" },
      { content: "Supplier contract for rocket engines was signed" },
      { content: "Old draft of the launch timeline, now obsolete" },
    ])) as [string, string, string, string];
    const r1 = await relate(w, x, y, "related_to");
    const r2 = await relate(w, z, x, "supports");
    await relate(w, x, gone, "supersedes");
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const body = await recall(w, {
      query: "Project Falcon launch checklist",
      limit: 1,
      include_relations: true,
    });
    expect(ids(body)).toEqual([x]);
    const m = body.memories[0];
    expect(m._signals.relation_count).toBe(2);
    expect(m.relations).toEqual([
      { id: r1, source_id: x, target_id: y, relation_type: "related_to", direction: "outgoing" },
      { id: r2, source_id: z, target_id: x, relation_type: "supports", direction: "incoming" },
    ]);

    const all = await recall(w, {
      query: "board meeting rocket",
      limit: 10,
      include_relations: true,
    });
    expect(all.memories).toHaveLength(3);
    for (const mem of all.memories) {
      expect(Array.isArray(mem.relations)).toBe(true);
      expect(mem.relations).toHaveLength(mem.id === x ? 2 : 1);
      expect(mem._signals.relation_count).toBe(mem.id === x ? 2 : 1);
    }
    const plain = await recall(w, { query: "Project Falcon launch checklist", limit: 1 });
    expect(plain.memories[0].relations).toBeUndefined();
    const off = await recall(w, {
      query: "Project Falcon launch checklist",
      limit: 1,
      include_relations: false,
    });
    expect(off.memories[0].relations).toBeUndefined();
  });

  it("a memory without relations gets an empty list", async () => {
    const w = newWallet();
    const id = await storeNew(w, "Standalone fact about glaciers");
    const body = await recall(w, { query: "glaciers", include_relations: true });
    expect(body.memories[0]).toMatchObject({ id, relations: [] });
  });

  it("pinned memories are exempt from decay; unpinned ones decay from accessed_at", async () => {
    const w = newWallet();
    const [pinned, unpinned, fresh] = (await storeMany(w, [
      { content: "Lighthouse maintenance schedule: repaint the lantern room", pinned: true },
      { content: "Lighthouse maintenance schedule: replace the foghorn battery" },
      { content: "Lighthouse maintenance schedule: wash the spiral staircase windows" },
    ])) as [string, string, string];
    await withDb(async (db) => {
      const userId = await userIdOf(db, w);
      await db.execute(sql`
        UPDATE memories SET accessed_at = now() - interval '60 days',
          created_at = now() - interval '60 days'
        WHERE user_id = ${userId} AND id IN (${pinned}, ${unpinned})`);
    });
    const body = await recall(w, { query: "lighthouse maintenance schedule", limit: 3 });
    const byId = new Map<string, Json>(body.memories.map((m: Json) => [m.id, m]));
    expect(byId.size).toBe(3);
    expect(byId.get(pinned)._signals.type_decay).toBe(1);
    expect(byId.get(unpinned)._signals.type_decay).toBeCloseTo(0.5, 4);
    expect(byId.get(fresh)._signals.type_decay).toBeGreaterThan(0.9999);
    expect(byId.get(pinned)._signals.recency).toBeCloseTo(Math.exp(-2), 4);
    expect(byId.get(pinned).similarity).toBeGreaterThan(byId.get(unpinned).similarity);

    // Pinning later (PATCH) lifts the decay too.
    await eventually(
      () => getMemory(w, unpinned),
      (m) => m.access_count === 1,
    );
    await withDb(async (db) => {
      const userId = await userIdOf(db, w);
      await db.execute(sql`
        UPDATE memories SET accessed_at = now() - interval '60 days'
        WHERE user_id = ${userId} AND id = ${unpinned}`);
    });
    expect((await w.patch(`/v1/memories/${unpinned}`, { pinned: true })).status).toBe(200);
    const again = await recall(w, { query: "replace the foghorn battery", limit: 1 });
    expect(again.memories[0]).toMatchObject({ id: unpinned, pinned: true });
    expect(again.memories[0]._signals.type_decay).toBe(1);
  });

  it("immutable memories are recalled normally", async () => {
    const w = newWallet();
    const locked = await storeNew(w, "The founding charter was signed in 1998 in Lisbon", {
      immutable: true,
      importance: 0.9,
    });
    const patched = await storeNew(w, "The charter amendment was proposed in 2004");
    expect((await w.patch(`/v1/memories/${patched}`, { immutable: true })).status).toBe(200);
    const body = await recall(w, { query: "founding charter signed in Lisbon", limit: 5 });
    expect(ids(body)[0]).toBe(locked);
    expect(sorted(ids(body))).toEqual(sorted([locked, patched]));
    expect(body.memories[0]).toMatchObject({ importance: 0.9, access_count: 0 });
    const counted = await eventually(
      () => getMemory(w, locked),
      (m) => m.access_count === 1,
    );
    expect(counted.access_count).toBe(1);
  });
});
