/**
 * The speed part: the service over HTTP on this machine, and Mem0 in process on the same
 * synthetic memories and queries.
 *
 * Ours: 100 other wallets hold data in the same tables throughout (seeded through the data
 * layer). Wallet sizes up to --api-seed-max are seeded through the public API (batch store,
 * 100 a call, with the HNSW index live: that is the insert throughput); larger ones directly
 * through the data layer (same embedder, same tables) with the index built once afterwards.
 * Then, with sequential requests (one at a time, so latency is not queueing): recall
 * p50/p95/p99 at each size, single-store throughput, search and list latency.
 *
 * Mem0: for each size up to --mem0-max-size, a fresh instance (its local store, in memory)
 * given the same texts (add, 100 messages a call, infer false) and the same recall queries
 * (search, topK 5). Mem0's local store reads and scores every row it holds on each search,
 * so it is given only that size's memories, not the other wallets'.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { memories, users } from "../../schema/tables";
import { connectDb } from "../../worker/db/client";
import type { Embedder } from "../../worker/embed/embedder";
import type { EmbedServer } from "./embed-server";
import type { BenchEmbedding } from "./embedding";
import { newWallet, type Wallet } from "./http-client";
import { createMem0, loadMem0, type Mem0Store, mem0Version } from "./mem0";
import { fmt, log, machine, ratio, type Table } from "./report";
import type { Stack } from "./stack";
import { type LatencySummary, round1, summary, timingMeans } from "./stats";
import { prng, queryFor, type SyntheticQuery, sentence, TYPES, word } from "./synthetic";

type Db = ReturnType<typeof connectDb>["db"];

/** The HNSW index exactly as the migration creates it (schema/migrations/0001_init.sql). */
const HNSW_INDEX_DDL = `CREATE INDEX "memories_embedding_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL`;
const WARM_UP_QUERIES = 20;
const RECALL_LIMIT = 5;

export interface SpeedOptions {
  sizes: number[];
  queries: number;
  others: number;
  perOther: number;
  apiSeedMax: number;
  mem0MaxSize: number;
  useMem0: boolean;
  embed?: EmbedServer;
  /** The run's embedder: the Worker's, so directly seeded rows carry the same model. */
  embedding: BenchEmbedding;
}

export interface SpeedOutcome {
  tables: Table[];
  json: Record<string, unknown>;
}

interface SizeRun {
  size: number;
  wallet: Wallet;
  texts: string[];
  queries: SyntheticQuery[];
  insert?: { ms: number; per_second: number };
}

interface RecallRun extends LatencySummary {
  top1_hit_rate: number;
}

export async function runSpeed(stack: Stack, opts: SpeedOptions): Promise<SpeedOutcome> {
  const { db, close } = connectDb(stack.database.url, stack.database.wsProxy);
  const results: Record<string, unknown> = {};
  const rows: string[][] = [];
  const recallBySize = new Map<number, RecallRun>();
  const runs: SizeRun[] = [];
  let mem0Json: Mem0Json | null = null;
  let mem0Stores: Awaited<ReturnType<typeof seedMem0>>;
  try {
    // The other wallets through the data layer, then one index build (a scratch database).
    log(`seeding ${opts.others} other wallets × ${opts.perOther} memories (data layer)`);
    await db.execute(sql`DROP INDEX IF EXISTS memories_embedding_idx`);
    for (let i = 0; i < opts.others; i++) {
      await seedDirect(
        db,
        opts.embedding.embedder,
        privateKeyToAccount(generatePrivateKey()).address,
        opts.perOther,
        10_000 + i,
      );
    }
    await buildIndex(db);

    // Store throughput: single stores into a fresh wallet.
    {
      const w = newWallet(stack.baseUrl);
      const r = prng(1);
      const ms: number[] = [];
      const started = performance.now();
      for (let i = 0; i < 200; i++)
        ms.push((await w.call("POST", "/v1/store", { content: sentence(r) })).ms);
      const perSecond = Math.round(200 / ((performance.now() - started) / 1000));
      const s = summary(ms);
      results.store = { ...s, per_second: perSecond };
      rows.push([
        "store (single)",
        "200 req",
        `${s.p50}`,
        `${s.p95}`,
        `${s.p99}`,
        `${perSecond} req/s`,
      ]);
    }

    // Wallets seeded through the API while the HNSW index is live: insert throughput.
    for (const size of opts.sizes.filter((n) => n <= opts.apiSeedMax)) {
      const w = newWallet(stack.baseUrl);
      const seeded = await seedViaApi(w, size, size);
      const perSecond = Math.round(size / (seeded.ms / 1000));
      const insert = { ms: Math.round(seeded.ms), per_second: perSecond };
      results[`batch_store_${size}`] = {
        memories: size,
        ...insert,
        memories_per_second: perSecond,
      };
      rows.push(["batch store", `${size / 100}×100`, "", "", "", `${perSecond} memories/s`]);
      log(`seeded ${size} memories through POST /v1/store/batch (${perSecond} memories/s)`);
      runs.push({
        size,
        wallet: w,
        texts: seeded.texts,
        queries: speedQueries(seeded.texts, size, opts.queries),
        insert,
      });
    }
    // Larger wallets through the data layer, then the index once.
    const bulk = opts.sizes.filter((n) => n > opts.apiSeedMax);
    if (bulk.length > 0) {
      await db.execute(sql`DROP INDEX IF EXISTS memories_embedding_idx`);
      for (const size of bulk) {
        const w = newWallet(stack.baseUrl);
        log(`seeding ${size} memories (data layer)`);
        const started = Date.now();
        const texts = await seedDirect(db, opts.embedding.embedder, w.account.address, size, size);
        log(`seeded ${size} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        runs.push({ size, wallet: w, texts, queries: speedQueries(texts, size, opts.queries) });
      }
      await buildIndex(db);
    }
    await db.execute(sql`ANALYZE memories`);

    // Mem0 gets the same texts (its insert throughput), then both answer the same queries,
    // one system after the other for each query, so background load falls on both alike.
    mem0Stores = opts.useMem0 ? await seedMem0(runs, opts) : undefined;
    if (mem0Stores) mem0Json = mem0Stores.json;

    for (const run of runs) {
      const { size, wallet: w, queries } = run;
      const m0 = mem0Stores?.bySize.get(size);
      for (const q of queries.slice(0, WARM_UP_QUERIES)) {
        await w.call("POST", "/v1/recall", { query: q.query });
        await m0?.store.search(m0.userId, q.query, RECALL_LIMIT);
      }
      const ms: number[] = [];
      const mem0Ms: number[] = [];
      const timings: Array<string | null> = [];
      let hits = 0;
      let mem0Hits = 0;
      for (const q of queries.slice(WARM_UP_QUERIES)) {
        const res = await w.call<{ memories?: Array<{ content: string }> }>("POST", "/v1/recall", {
          query: q.query,
          limit: RECALL_LIMIT,
        });
        ms.push(res.ms);
        timings.push(res.timing);
        if (res.body.memories?.[0]?.content === q.target) hits += 1;
        if (m0) {
          const t0 = performance.now();
          const found = await m0.store.search(m0.userId, q.query, RECALL_LIMIT);
          mem0Ms.push(performance.now() - t0);
          if (found[0]?.memory === q.target) mem0Hits += 1;
        }
      }
      const s = summary(ms);
      const recall = { ...s, top1_hit_rate: hits / ms.length };
      recallBySize.set(size, recall);
      results[`recall_${size}`] = { ...recall, server_timing_ms: timingMeans(timings) };
      rows.push([
        `recall @ ${size.toLocaleString("en")}`,
        `${ms.length} req`,
        `${s.p50}`,
        `${s.p95}`,
        `${s.p99}`,
        `top-1 ${Math.round((100 * hits) / ms.length)}%`,
      ]);
      log(
        `recall at ${size}: p50 ${s.p50} ms, p95 ${s.p95} ms; server timing ${JSON.stringify(timingMeans(timings))}`,
      );
      if (m0) {
        m0.recall = { ...summary(mem0Ms), top1_hit_rate: mem0Hits / mem0Ms.length };
        const entry = mem0Stores?.json.sizes[size];
        if (entry) entry.recall = m0.recall;
        log(`Mem0 recall at ${size}: p50 ${m0.recall.p50} ms, p95 ${m0.recall.p95} ms`);
      }
    }

    const largest = runs.reduce<SizeRun | undefined>(
      (a, b) => (a && a.size >= b.size ? a : b),
      undefined,
    );
    if (largest) {
      const r = prng(99);
      const search: number[] = [];
      const list: number[] = [];
      for (let i = 0; i < opts.queries; i++) {
        search.push(
          (
            await largest.wallet.call("POST", "/v1/search", {
              query: `${word(r)} ${word(r)}`,
              limit: 10,
            })
          ).ms,
        );
        list.push(
          (
            await largest.wallet.call(
              "GET",
              `/v1/memories?limit=20&offset=${Math.floor(r() * 100)}`,
            )
          ).ms,
        );
      }
      const s1 = summary(search);
      const s2 = summary(list);
      results.search = { wallet_size: largest.size, ...s1 };
      results.list = { wallet_size: largest.size, ...s2 };
      const at = largest.size.toLocaleString("en");
      rows.push([
        `search @ ${at}`,
        `${opts.queries} req`,
        `${s1.p50}`,
        `${s1.p95}`,
        `${s1.p99}`,
        "",
      ]);
      rows.push([`list @ ${at}`, `${opts.queries} req`, `${s2.p50}`, `${s2.p95}`, `${s2.p99}`, ""]);
    }
  } finally {
    await close();
  }

  const tables: Table[] = [
    {
      title: `Speed over HTTP (wrangler dev, ${opts.embedding.label}, ${stack.dbLabel}, sequential requests)`,
      header: ["operation", "requests", "p50 ms", "p95 ms", "p99 ms", "throughput / quality"],
      rows,
    },
  ];

  if (mem0Stores && mem0Stores.bySize.size > 0) {
    tables.push(sideBySide(runs, recallBySize, mem0Stores.bySize, opts));
  }

  return {
    tables,
    json: {
      when: new Date().toISOString(),
      database: stack.dbLabel,
      machine: machine(),
      other_wallets: { count: opts.others, memories_each: opts.perOther },
      results,
      mem0: mem0Json,
    },
  };
}

function speedQueries(texts: string[], size: number, count: number): SyntheticQuery[] {
  const r = prng(size + 1);
  return Array.from({ length: WARM_UP_QUERIES + count }, () => queryFor(texts, r));
}

interface Mem0SizeRun {
  store: Mem0Store;
  userId: string;
  insert: { ms: number; per_second: number };
  recall?: RecallRun;
}

interface Mem0Json {
  package: string;
  version: string;
  where: string;
  sizes: Record<
    number,
    { insert: Mem0SizeRun["insert"]; recall?: RecallRun; embed_server: unknown }
  >;
}

/** A fresh Mem0 per size, given that size's texts: 100 messages an add, infer false. */
async function seedMem0(
  runs: SizeRun[],
  opts: SpeedOptions,
): Promise<{ bySize: Map<number, Mem0SizeRun>; json: Mem0Json } | undefined> {
  const { embed } = opts;
  if (!embed) return undefined;
  const mod = await loadMem0();
  if (typeof mod === "string") {
    log(`Mem0 skipped: ${mod}`);
    return undefined;
  }
  const bySize = new Map<number, Mem0SizeRun>();
  const json: Mem0Json = {
    package: "mem0ai",
    version: mem0Version(),
    where: "in process",
    sizes: {},
  };
  for (const run of runs) {
    if (run.size > opts.mem0MaxSize) {
      log(`Mem0 not run at ${run.size} memories (above --mem0-max-size ${opts.mem0MaxSize})`);
      continue;
    }
    embed.resetStats();
    const store = await createMem0(mod, embed);
    const userId = `speed-${run.size}`;
    log(`Mem0: adding ${run.size} memories (in process, 100 messages an add, infer false)`);
    const started = performance.now();
    for (let i = 0; i < run.texts.length; i += 100) {
      await store.add(userId, run.texts.slice(i, i + 100));
      if ((i / 100) % 20 === 19) log(`  … ${i + 100} / ${run.texts.length}`);
    }
    const insertMs = performance.now() - started;
    const insert = {
      ms: Math.round(insertMs),
      per_second: Math.round(run.size / (insertMs / 1000)),
    };
    bySize.set(run.size, { store, userId, insert });
    const s = embed.stats;
    json.sizes[run.size] = { insert, embed_server: { ...s, ms: round1(s.ms) } };
    log(`Mem0 at ${run.size}: ${insert.per_second} memories/s`);
    if (s.chatRequests > 0) throw new Error(`Mem0 called the language model ${s.chatRequests}×`);
  }
  return { bySize, json };
}

function sideBySide(
  runs: SizeRun[],
  ours: Map<number, RecallRun>,
  mem0: Map<number, Mem0SizeRun>,
  opts: SpeedOptions,
): Table {
  const sizes = runs.map((r) => r.size).filter((s) => mem0.has(s));
  const k = (n: number) => (n >= 1000 ? `${n / 1000}k` : `${n}`);
  const header = ["system"];
  for (const s of sizes)
    header.push(`insert/s @${k(s)}`, `p50 ms @${k(s)}`, `p95 ms @${k(s)}`, `top-1 @${k(s)}`);
  const oursRow = ["ours (HTTP)"];
  const mem0Row = ["Mem0 (in process)"];
  const ratioRow = ["ours / Mem0"];
  for (const s of sizes) {
    const o = ours.get(s);
    const oi = runs.find((r) => r.size === s)?.insert;
    const m = mem0.get(s);
    oursRow.push(
      oi ? `${oi.per_second}` : "",
      fmt(o?.p50),
      fmt(o?.p95),
      o ? `${Math.round(100 * o.top1_hit_rate)}%` : "",
    );
    mem0Row.push(
      m ? `${m.insert.per_second}` : "",
      fmt(m?.recall?.p50),
      fmt(m?.recall?.p95),
      m?.recall ? `${Math.round(100 * m.recall.top1_hit_rate)}%` : "",
    );
    ratioRow.push(
      ratio(oi?.per_second, m?.insert.per_second),
      ratio(o?.p50, m?.recall?.p50),
      ratio(o?.p95, m?.recall?.p95),
      ratio(o?.top1_hit_rate, m?.recall?.top1_hit_rate),
    );
  }
  return {
    title:
      "Speed side by side: ours over HTTP against the running service, Mem0 in process (same texts, queries and embeddings)",
    header,
    rows: [oursRow, mem0Row, ratioRow],
    notes: [
      `insert/s: memories stored a second, 100 a call (ours: POST /v1/store/batch with the HNSW index live; ${opts.sizes.some((n) => n > opts.apiSeedMax) ? `sizes above ${opts.apiSeedMax} are seeded through the data layer and have no figure; ` : ""}Mem0: add with 100 messages, infer false).`,
      `p50/p95: recall latency, limit ${RECALL_LIMIT}, ${opts.queries} sequential queries after ${WARM_UP_QUERIES} warm-up ones; ours includes HTTP through wrangler dev, Mem0 includes one local HTTP embedding call per query.`,
      "top-1: how often the memory a synthetic query was drawn from ranks first (ours counts recalled memories' access_boost).",
    ],
  };
}

async function seedViaApi(
  w: Wallet,
  count: number,
  seed: number,
): Promise<{ texts: string[]; ms: number }> {
  const r = prng(seed);
  const texts: string[] = [];
  let ms = 0;
  for (let done = 0; done < count; done += 100) {
    const batch = Array.from({ length: Math.min(100, count - done) }, () => {
      const content = sentence(r);
      texts.push(content);
      return {
        content,
        importance: Math.round(r() * 100) / 100,
        memory_type: TYPES[Math.floor(r() * TYPES.length)],
      };
    });
    ms += (await w.call("POST", "/v1/store/batch", { memories: batch })).ms;
    if ((done / 100) % 20 === 19) log(`  … ${done + batch.length} / ${count}`);
  }
  return { texts, ms };
}

async function seedDirect(
  db: Db,
  embedder: Embedder,
  address: string,
  count: number,
  seed: number,
): Promise<string[]> {
  const r = prng(seed);
  const [user] = await db
    .insert(users)
    .values({ wallet: address.toLowerCase() })
    .returning({ id: users.id });
  if (!user) throw new Error("user insert failed");
  const texts: string[] = [];
  const now = Date.now();
  for (let done = 0; done < count; done += 500) {
    const n = Math.min(500, count - done);
    const contents = Array.from({ length: n }, () => sentence(r));
    texts.push(...contents);
    const { vectors } = await embedder.embed(contents);
    await db.insert(memories).values(
      contents.map((content, i) => {
        const created = new Date(now - Math.floor(r() * 90 * 86_400_000));
        return {
          userId: user.id,
          content,
          importance: Math.round(r() * 100) / 100,
          memoryType: TYPES[Math.floor(r() * TYPES.length)] ?? "general",
          embedding: vectors[i],
          embeddingModel: embedder.model,
          contentHash: createHash("sha256").update(content).digest("hex"),
          createdAt: created,
          updatedAt: created,
          accessedAt: created,
        };
      }),
    );
    if ((done / 500) % 20 === 19) log(`  … ${done + n} / ${count}`);
  }
  return texts;
}

/** Bulk seeding inserts without the index (one HNSW insertion a row is ~20 min at 100k). */
async function buildIndex(db: Db): Promise<void> {
  const started = Date.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL maintenance_work_mem = '1GB'`);
    await tx.execute(sql.raw(HNSW_INDEX_DDL));
  });
  log(`HNSW index built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
