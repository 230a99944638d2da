/**
 * `npm run bench`: speed of the service over HTTP, on this machine.
 *
 * Starts its own database (embedded PGlite, or DATABASE_URL) and `wrangler dev` on port 8788,
 * seeds wallets, and measures with sequential requests (one at a time, so latency is not
 * queueing): recall p50/p95/p99 at each wallet size, store and batch-store throughput,
 * search and list latency. Wallet sizes up to 1k are seeded through the public API (batch
 * store); larger ones directly through the data layer (same embedder, same tables). 100 other
 * wallets hold data in the same tables throughout. Prints a table and writes JSON to
 * bench-results/.
 *
 *   npm run bench                              # sizes 1000,10000,100000
 *   npm run bench -- --sizes 1000,10000 --queries 100
 *   DATABASE_URL=postgres://… npm run bench    # a real PostgreSQL server
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { memories, users } from "../schema/tables";
import { connectDb } from "../worker/db/client";
import { LocalEmbedder } from "../worker/embed/local";
import { startLocalDatabase } from "./local-db";
import { assertPortFree, ROOT, startWrangler, waitForHealth } from "./service";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,10000,100000" },
    queries: { type: "string", default: "200" },
    others: { type: "string", default: "100" },
    "per-other": { type: "string", default: "100" },
    port: { type: "string", default: "8788" },
    out: { type: "string", default: `${ROOT}bench-results` },
  },
});
const SIZES = (args.sizes ?? "")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const QUERIES = Number(args.queries);
const OTHERS = Number(args.others);
const PER_OTHER = Number(args["per-other"]);
const BASE = `http://127.0.0.1:${args.port}`;
const API_SEED_MAX = 1000;

const log = (line: string) => console.log(`[bench] ${line}`);

// ---------------------------------------------------------------- deterministic text
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gi ho ju ly pa qu re so tu wi xe ya zo".split(
  " ",
);
const VOCAB: string[] = [];
{
  const r = prng(7);
  const seen = new Set<string>();
  while (VOCAB.length < 5000) {
    const n = 2 + Math.floor(r() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      VOCAB.push(w);
    }
  }
}
/** Zipf-like word choice: a few words are common, most are rare (as in real text). */
function word(r: () => number): string {
  return VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * r() ** 3))] ?? "ka";
}
function sentence(r: () => number): string {
  const n = 8 + Math.floor(r() * 22);
  return Array.from({ length: n }, () => word(r)).join(" ");
}
const TYPES = ["general", "observation", "preference", "decision", "project", "correction"];

// ---------------------------------------------------------------- HTTP client
async function authHeader(account: PrivateKeyAccount): Promise<string> {
  const ts = Math.floor(Date.now() / 1000);
  return `${account.address}:${ts}:${await account.signMessage({ message: `service-auth:${ts}` })}`;
}

/** A wallet whose auth header is re-signed every 4 minutes (it is valid for 5). */
function wallet() {
  const account = privateKeyToAccount(generatePrivateKey());
  let header = "";
  let signedAt = 0;
  return {
    account,
    async call(method: string, path: string, body?: unknown) {
      if (Date.now() - signedAt > 240_000) {
        header = await authHeader(account);
        signedAt = Date.now();
      }
      const started = performance.now();
      const res = await fetch(`${BASE}${path}`, {
        method,
        headers: { "x-wallet-auth": header, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
      return { ms, body: JSON.parse(text), timing: res.headers.get("server-timing") };
    },
  };
}
type Wallet = ReturnType<typeof wallet>;

// ---------------------------------------------------------------- stats
function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}
function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    n: s.length,
    p50: r(pct(s, 50)),
    p95: r(pct(s, 95)),
    p99: r(pct(s, 99)),
    mean: r(s.reduce((a, b) => a + b, 0) / s.length),
  };
}
/** Mean of each Server-Timing metric over a run (where the time goes inside the Worker). */
function timingMeans(headers: Array<string | null>) {
  const sums = new Map<string, { total: number; n: number }>();
  for (const h of headers) {
    for (const part of (h ?? "").split(",")) {
      const m = part.trim().match(/^([\w-]+);dur=([\d.]+)/);
      if (!m?.[1] || !m[2]) continue;
      const e = sums.get(m[1]) ?? { total: 0, n: 0 };
      e.total += Number(m[2]);
      e.n += 1;
      sums.set(m[1], e);
    }
  }
  return Object.fromEntries([...sums].map(([k, v]) => [k, Math.round((v.total / v.n) * 10) / 10]));
}

// ---------------------------------------------------------------- seeding
interface Seeded {
  wallet: Wallet;
  texts: string[];
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
  }
  return { texts, ms };
}

async function seedDirect(
  db: ReturnType<typeof connectDb>["db"],
  address: string,
  count: number,
  seed: number,
) {
  const embedder = new LocalEmbedder();
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

/** A query built from one stored memory's words, shuffled, plus noise words. */
function queryFor(texts: string[], r: () => number): string {
  const target = texts[Math.floor(r() * texts.length)] ?? "";
  const words = target
    .split(" ")
    .sort(() => r() - 0.5)
    .slice(0, 5);
  return [...words, word(r), word(r)].join(" ");
}

// ---------------------------------------------------------------- scratch database
/** The HNSW index exactly as the migration creates it (schema/migrations/0001_init.sql). */
const HNSW_INDEX_DDL = `CREATE INDEX "memories_embedding_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL`;

/**
 * Against a server the bench never touches your data: it creates a database of its own on
 * that server (needs CREATEDB), runs there, and drops it at the end.
 */
async function scratchDatabase(url: string): Promise<string> {
  const { Client } = await import("@neondatabase/serverless");
  const name = `memory_bench_${process.pid}`;
  const target = new URL(url);
  target.pathname = `/${name}`;
  await withAdmin(url, Client, `CREATE DATABASE ${name}`);
  log(`scratch database ${name} created`);
  return target.toString();
}

async function dropScratch(url: string, scratchUrl: string): Promise<void> {
  const { Client } = await import("@neondatabase/serverless");
  const name = new URL(scratchUrl).pathname.slice(1);
  await withAdmin(url, Client, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err) =>
    log(`could not drop ${name}: ${err instanceof Error ? err.message : err}`),
  );
}

async function withAdmin(
  url: string,
  Client: typeof import("@neondatabase/serverless").Client,
  statement: string,
): Promise<void> {
  const { neonConfig } = await import("@neondatabase/serverless");
  const ws = (await import("ws")).default;
  const { startWsProxy } = await import("./ws-proxy");
  neonConfig.webSocketConstructor = ws;
  const proxy = await startWsProxy(0);
  neonConfig.wsProxy = (h, p) => `127.0.0.1:${proxy.port}/v2?address=${h}:${p}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  const client = new Client(url);
  try {
    await client.connect();
    await client.query(statement);
  } finally {
    await client.end();
    await proxy.close();
  }
}

// ---------------------------------------------------------------- main
async function main() {
  mkdirSync(args.out ?? "bench-results", { recursive: true });
  await assertPortFree(BASE);
  const t0 = Date.now();
  const database = await startLocalDatabase({
    databaseUrl: process.env.DATABASE_URL
      ? await scratchDatabase(process.env.DATABASE_URL)
      : undefined,
    dataDir: "memory://",
    log,
  });
  const dbKind = database.kind === "embedded" ? "embedded PGlite" : "PostgreSQL server";
  const service = startWrangler({
    port: Number(args.port),
    quiet: true,
    vars: {
      DATABASE_URL: database.url,
      JWT_SECRET: "bench-secret-bench-secret-bench-secret-00",
      // The bench sends far more than 100 requests a minute per wallet; limits are measured
      // by the tests, not here. (The Meter Durable Object call is therefore not in these
      // figures: about one local RPC per request.)
      METERING: "off",
      ...(database.wsProxy ? { NEON_WS_PROXY: database.wsProxy } : {}),
    },
  });
  const stop = async () => {
    service.stop();
    await database.stop();
    if (process.env.DATABASE_URL) await dropScratch(process.env.DATABASE_URL, database.url);
  };
  process.on("SIGINT", () => void stop().then(() => process.exit(130)));

  try {
    await waitForHealth(BASE);
    log(`service up on ${BASE} against ${dbKind} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    const { db, close } = connectDb(database.url, database.wsProxy);

    // Bulk seeding: inserting 100k rows one HNSW insertion at a time takes ~20 min here;
    // building the index once afterwards takes about a minute. (This is a scratch database.)
    const bulk = SIZES.some((n) => n > API_SEED_MAX);
    if (bulk) await db.execute(sql`DROP INDEX IF EXISTS memories_embedding_idx`);
    log(`seeding ${OTHERS} other wallets × ${PER_OTHER} memories (data layer)`);
    for (let i = 0; i < OTHERS; i++) {
      await seedDirect(
        db,
        privateKeyToAccount(generatePrivateKey()).address,
        PER_OTHER,
        10_000 + i,
      );
    }

    const results: Record<string, unknown> = {};
    const rows: string[][] = [];

    // Store throughput: single stores, then batches, each into a fresh wallet.
    {
      const w = wallet();
      const r = prng(1);
      const ms: number[] = [];
      const started = performance.now();
      for (let i = 0; i < 200; i++)
        ms.push((await w.call("POST", "/v1/store", { content: sentence(r) })).ms);
      const secs = (performance.now() - started) / 1000;
      const s = summary(ms);
      results.store = { ...s, per_second: Math.round(200 / secs) };
      rows.push([
        "store (single)",
        "200 req",
        `${s.p50}`,
        `${s.p95}`,
        `${s.p99}`,
        `${Math.round(200 / secs)} req/s`,
      ]);
    }

    const wallets: Array<{ size: number } & Seeded> = [];
    for (const size of SIZES) {
      const w = wallet();
      let texts: string[];
      if (size <= API_SEED_MAX) {
        const seeded = await seedViaApi(w, size, size);
        texts = seeded.texts;
        const perSec = Math.round(size / (seeded.ms / 1000));
        results[`batch_store_${size}`] = {
          memories: size,
          ms: Math.round(seeded.ms),
          memories_per_second: perSec,
        };
        rows.push(["batch store", `${size / 100}×100`, "", "", "", `${perSec} memories/s`]);
        log(`seeded ${size} memories through POST /v1/store/batch (${perSec} memories/s)`);
      } else {
        log(`seeding ${size} memories (data layer)`);
        const started = Date.now();
        texts = await seedDirect(db, w.account.address, size, size);
        log(`seeded ${size} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      wallets.push({ size, wallet: w, texts });
    }
    if (bulk) {
      const started = Date.now();
      log("building the HNSW index");
      await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL maintenance_work_mem = '1GB'`);
        await tx.execute(sql.raw(HNSW_INDEX_DDL));
      });
      log(`HNSW index built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    await db.execute(sql`ANALYZE memories`);

    for (const { size, wallet: w, texts } of wallets) {
      const r = prng(size + 1);
      for (let i = 0; i < 20; i++)
        await w.call("POST", "/v1/recall", { query: queryFor(texts, r) });
      const ms: number[] = [];
      const timings: Array<string | null> = [];
      let hits = 0;
      for (let i = 0; i < QUERIES; i++) {
        const target = texts[Math.floor(r() * texts.length)] ?? "";
        const words = target
          .split(" ")
          .sort(() => r() - 0.5)
          .slice(0, 5);
        const res = await w.call("POST", "/v1/recall", {
          query: [...words, word(r), word(r)].join(" "),
          limit: 5,
        });
        ms.push(res.ms);
        timings.push(res.timing);
        if (res.body.memories?.[0]?.content === target) hits += 1;
      }
      const s = summary(ms);
      results[`recall_${size}`] = {
        ...s,
        top1_hit_rate: hits / QUERIES,
        server_timing_ms: timingMeans(timings),
      };
      rows.push([
        `recall @ ${size.toLocaleString("en")}`,
        `${QUERIES} req`,
        `${s.p50}`,
        `${s.p95}`,
        `${s.p99}`,
        `top-1 ${Math.round((100 * hits) / QUERIES)}%`,
      ]);
      log(
        `recall at ${size}: p50 ${s.p50} ms, p95 ${s.p95} ms; server timing ${JSON.stringify(timingMeans(timings))}`,
      );
    }

    const largest = wallets[wallets.length - 1];
    if (largest) {
      const r = prng(99);
      const search: number[] = [];
      const list: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
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
      rows.push([
        `search @ ${largest.size.toLocaleString("en")}`,
        `${QUERIES} req`,
        `${s1.p50}`,
        `${s1.p95}`,
        `${s1.p99}`,
        "",
      ]);
      rows.push([
        `list @ ${largest.size.toLocaleString("en")}`,
        `${QUERIES} req`,
        `${s2.p50}`,
        `${s2.p95}`,
        `${s2.p99}`,
        "",
      ]);
    }
    await close();

    const header = ["operation", "requests", "p50 ms", "p95 ms", "p99 ms", "throughput / quality"];
    const widths = header.map((h, i) =>
      Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    console.log(`\nSpeed over HTTP (wrangler dev, local embedder, ${dbKind}, sequential requests)`);
    console.log(line(header));
    console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const row of rows) console.log(line(row));

    const report = {
      when: new Date().toISOString(),
      database: dbKind,
      machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
      other_wallets: { count: OTHERS, memories_each: PER_OTHER },
      results,
    };
    const file = `${args.out}/speed-${database.kind}.json`;
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nJSON: ${file}`);
  } finally {
    await stop();
  }
}

main().catch((err) => {
  console.error("[bench] failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
