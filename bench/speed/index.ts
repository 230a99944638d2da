/**
 * The speed part: the service over HTTP on this machine, and Mem0 in process on the same
 * synthetic memories and queries.
 *
 * Ours: `--other-rows` memories of other wallets share the tables throughout (seed.ts: most in
 * wallets of 1,000, `--other-large-rows` of them in wallets of 10,000 that are searched through
 * HNSW), loaded through the data layer with INSERT … SELECT. Wallet sizes above --api-seed-max
 * are seeded the same way; then the HNSW shard indexes are built once. Sizes up to it are
 * seeded through POST /v1/store/batch with the indexes live (the insert throughput; the
 * indexer runs after each response, as in production). Then, with sequential requests: recall
 * at each size (and how its vector source agrees with an exact scan, and its plan), single
 * stores, batch stores, search and list in the largest wallet.
 *
 * Mem0 (speed-mem0.ts): for each size up to --mem0-max-size, a fresh instance given the same
 * texts and asked the same recall queries, alternately with ours.
 */
import { sql } from "drizzle-orm";
import { connectDb } from "../../worker/db/client";
import { BACKLOG_MIN, EXACT_SCAN_MAX } from "../../worker/memories/ann";
import { annAgreement, recallPlan } from "../ann/quality";
import { newWallet, type Wallet } from "../lib/http-client";
import { log, machine } from "../lib/report";
import { summary, timingMeans } from "../lib/stats";
import { prng, queryFor, type SyntheticQuery, sentence, TYPES, word } from "../lib/synthetic";
import { buildAnnIndexes, dropAnnIndexes, seedOthers, seedWallet } from "../systems/seed";
import type { Stack } from "../systems/stack";
import { type Mem0SizeRun, seedMem0, sideBySide } from "./mem0";
import { speedTables } from "./report";
import type { OurSize, SpeedOptions, SpeedOutcome, SpeedResults } from "./types";

const WARM_UP_QUERIES = 20;
const RECALL_LIMIT = 5;

export async function runSpeed(stack: Stack, opts: SpeedOptions): Promise<SpeedOutcome> {
  // No query timeout: building the HNSW indexes over a million rows takes minutes.
  const { db, close } = connectDb(stack.database.url, {
    wsProxy: stack.database.wsProxy,
    queryTimeoutMs: 0,
  });
  const embedder = opts.embedding.embedder;
  const sizes: OurSize[] = [];
  let results: SpeedResults | undefined;
  let mem0: Awaited<ReturnType<typeof seedMem0>>;
  try {
    // Everything seeded through the data layer first, with the HNSW indexes dropped, then one
    // bulk build: the API-seeded sizes below then insert with the indexes live.
    await dropAnnIndexes(db);
    log(
      `seeding ${opts.otherRows.toLocaleString("en")} memories of other wallets (data layer, INSERT … SELECT)`,
    );
    await seedOthers(db, embedder, {
      rows: opts.otherRows,
      largeRows: opts.otherLargeRows,
      graphMin: stack.graphMin,
    });
    for (const size of opts.sizes.filter((n) => n > opts.apiSeedMax)) {
      const wallet = newWallet(stack.baseUrl);
      log(`seeding a wallet of ${size.toLocaleString("en")} memories (data layer)`);
      const texts = await seedWallet(
        db,
        embedder,
        wallet.account.address,
        size,
        size,
        stack.graphMin,
      );
      sizes.push({ size, wallet, texts, queries: speedQueries(texts, size, opts.queries) });
    }
    const buildSeconds = await buildAnnIndexes(db);
    // The steady state, not the aftermath of a bulk load: with a million fresh rows,
    // autovacuum's first pass (and the GIN pending lists it merges) would otherwise run
    // during the measurements.
    await vacuum(db);

    const store = await singleStores(newWallet(stack.baseUrl), 200, 1);
    const catchUp: Record<number, number> = {};
    for (const size of opts.sizes.filter((n) => n <= opts.apiSeedMax)) {
      const wallet = newWallet(stack.baseUrl);
      const seeded = await seedViaApi(wallet, size, size);
      const perSecond = Math.round(size / (seeded.ms / 1000));
      log(
        `seeded ${size} memories through POST /v1/store/batch (${perSecond} memories/s); server timing per batch ${JSON.stringify(seeded.timing)}`,
      );
      catchUp[size] = await indexCatchUp(db, wallet, size, stack.graphMin);
      sizes.push({
        size,
        wallet,
        texts: seeded.texts,
        queries: speedQueries(seeded.texts, size, opts.queries),
        insert: { ms: Math.round(seeded.ms), per_second: perSecond },
      });
    }
    sizes.sort((a, b) => a.size - b.size);
    await vacuum(db);

    mem0 = opts.useMem0 ? await seedMem0(sizes, opts) : undefined;
    for (const run of sizes) {
      await measureRecall(run, mem0?.bySize.get(run.size));
      if (run.size > EXACT_SCAN_MAX) {
        const userId = await userIdOf(db, run.wallet);
        const probe = run.queries.slice(0, 100).map((q) => q.query);
        const { vectors } = await embedder.embed(probe);
        run.agreement = await annAgreement(db, userId, embedder.model, vectors);
        const first = probe[0] ?? "";
        run.plan = await recallPlan(
          db,
          userId,
          embedder.model,
          embedder.semantic,
          first,
          vectors[0] ?? [],
        );
      }
    }

    const largest = sizes.at(-1);
    results = {
      store,
      sizes,
      index: { build_seconds: Math.round(buildSeconds), catch_up_seconds: catchUp },
      largest: largest ? await inLargest(largest) : undefined,
    };
  } finally {
    await close();
  }

  return {
    tables: [
      ...speedTables(results, stack.dbLabel, opts, mem0?.bySize),
      ...(mem0 && mem0.bySize.size > 0
        ? [
            sideBySide(
              sizes,
              new Map(sizes.flatMap((s) => (s.recall ? [[s.size, s.recall]] : []))),
              mem0.bySize,
              {
                recallLimit: RECALL_LIMIT,
                queries: opts.queries,
                warmUp: WARM_UP_QUERIES,
              },
            ),
          ]
        : []),
    ],
    json: {
      when: new Date().toISOString(),
      database: stack.dbLabel,
      embedder: opts.embedding.label,
      machine: machine(),
      other_wallets: { rows: opts.otherRows, in_large_wallets: opts.otherLargeRows },
      results: {
        ...results,
        sizes: results.sizes.map(({ wallet: _w, texts: _t, queries: _q, ...rest }) => rest),
      },
      mem0: mem0?.json ?? null,
    },
  };
}

async function vacuum(db: ReturnType<typeof connectDb>["db"]): Promise<void> {
  const started = Date.now();
  await db.execute(sql`VACUUM (ANALYZE) memories`);
  // A checkpoint too: the one a bulk load triggers otherwise spreads its writes over the next
  // minutes (270 s measured after the HNSW build), during the measurements, and every page
  // first written after it goes whole into the WAL. (CHECKPOINT needs superuser or
  // pg_checkpoint; without them the bench goes on.)
  await db.execute(sql`CHECKPOINT`).catch((err: unknown) => log(`no CHECKPOINT: ${String(err)}`));
  log(`VACUUM (ANALYZE) and CHECKPOINT in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function userIdOf(db: ReturnType<typeof connectDb>["db"], w: Wallet): Promise<string> {
  const rows = await db.execute<{ id: string }>(
    sql`SELECT id FROM users WHERE wallet = ${w.account.address.toLowerCase()}`,
  );
  const id = rows.rows[0]?.id;
  if (!id) throw new Error("bench wallet has no user");
  return id;
}

/**
 * Seconds until the indexer has caught up with the wallet: fewer than BACKLOG_MIN rows left
 * outside the HNSW index, the backlog it leaves to the exact scan (0 up to `graphMin`).
 */
async function indexCatchUp(
  db: ReturnType<typeof connectDb>["db"],
  w: Wallet,
  size: number,
  graphMin: number,
): Promise<number> {
  if (size <= graphMin) return 0;
  const userId = await userIdOf(db, w);
  const started = Date.now();
  for (;;) {
    const left = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM memories WHERE user_id = ${userId} AND deleted_at IS NULL AND NOT ann`,
    );
    const n = left.rows[0]?.n ?? 0;
    if (n < BACKLOG_MIN || Date.now() - started > 600_000) {
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      log(`indexer caught up with the ${size} wallet ${seconds} s after seeding (${n} left)`);
      return seconds;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function measureRecall(run: OurSize, m0?: Mem0SizeRun) {
  for (const q of run.queries.slice(0, WARM_UP_QUERIES)) {
    await run.wallet.call("POST", "/v1/recall", { query: q.query });
    await m0?.store.search(m0.userId, q.query, RECALL_LIMIT);
  }
  const ms: number[] = [];
  const service: number[] = [];
  const timings: Array<string | null> = [];
  const mem0Ms: number[] = [];
  let hits = 0;
  let mem0Hits = 0;
  for (const q of run.queries.slice(WARM_UP_QUERIES)) {
    const res = await run.wallet.call<{ memories?: Array<{ content: string }> }>(
      "POST",
      "/v1/recall",
      { query: q.query, limit: RECALL_LIMIT },
    );
    ms.push(res.ms);
    timings.push(res.timing);
    service.push(res.ms - (timingMeans([res.timing]).embed ?? 0));
    if (res.body.memories?.[0]?.content === q.target) hits += 1;
    if (m0) {
      const t0 = performance.now();
      const found = await m0.store.search(m0.userId, q.query, RECALL_LIMIT);
      mem0Ms.push(performance.now() - t0);
      if (found[0]?.memory === q.target) mem0Hits += 1;
    }
  }
  const means = timingMeans(timings);
  run.recall = {
    ...summary(ms),
    top1_hit_rate: hits / ms.length,
    service_p95: summary(service).p95,
    embed_mean: means.embed ?? 0,
  };
  log(
    `recall at ${run.size}: p95 ${run.recall.p95} ms (${run.recall.service_p95} ms without embedding); server timing ${JSON.stringify(means)}`,
  );
  if (m0) {
    m0.recall = { ...summary(mem0Ms), top1_hit_rate: mem0Hits / mem0Ms.length };
    log(`Mem0 recall at ${run.size}: p50 ${m0.recall.p50} ms, p95 ${m0.recall.p95} ms`);
  }
}

/** Single stores, batch stores, search and list in the largest wallet. */
async function inLargest(run: OurSize): Promise<NonNullable<SpeedResults["largest"]>> {
  const { per_second: _, ...store } = await singleStores(run.wallet, 100, run.size + 7);
  const batch = await seedViaApi(run.wallet, 1000, run.size + 11);
  log(
    `batch store into the ${run.size} wallet: server timing per batch ${JSON.stringify(batch.timing)}`,
  );
  const r = prng(99);
  const search: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < 200; i++) {
    const query = `${word(r)} ${word(r)}`;
    search.push((await run.wallet.call("POST", "/v1/search", { query, limit: 10 })).ms);
    const offset = Math.floor(r() * 100);
    list.push((await run.wallet.call("GET", `/v1/memories?limit=20&offset=${offset}`)).ms);
  }
  return {
    size: run.size,
    store,
    batch_per_second: Math.round(1000 / (batch.ms / 1000)),
    search: summary(search),
    list: summary(list),
  };
}

async function singleStores(w: Wallet, count: number, seed: number) {
  const r = prng(seed);
  const ms: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    ms.push((await w.call("POST", "/v1/store", { content: sentence(r) })).ms);
  }
  const perSecond = Math.round(count / ((performance.now() - started) / 1000));
  return { ...summary(ms), per_second: perSecond };
}

function speedQueries(texts: string[], size: number, count: number): SyntheticQuery[] {
  const r = prng(size + 1);
  return Array.from({ length: WARM_UP_QUERIES + count }, () => queryFor(texts, r));
}

async function seedViaApi(
  w: Wallet,
  count: number,
  seed: number,
): Promise<{ texts: string[]; ms: number; timing: Record<string, number> }> {
  const r = prng(seed);
  const texts: string[] = [];
  const timings: Array<string | null> = [];
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
    const res = await w.call("POST", "/v1/store/batch", { memories: batch });
    ms += res.ms;
    timings.push(res.timing);
    if ((done / 100) % 20 === 19) {
      // The server's time of the last 20 batches: where a slowdown with the wallet's size is.
      const { dedup, write, total } = timingMeans(timings.slice(-20));
      log(
        `  … ${done + batch.length} / ${count} (last 20 batches, server ms each: dedup ${dedup}, write ${write}, total ${total})`,
      );
    }
  }
  return { texts, ms, timing: timingMeans(timings) };
}
