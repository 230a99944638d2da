/**
 * The speed part: the service over HTTP on this machine, and Mem0 in process on the same
 * synthetic memories and queries.
 *
 * Ours: `--other-rows` memories of other wallets share the tables throughout (../systems/seed.ts: most in
 * wallets of 1,000, `--other-large-rows` of them in wallets of 10,000 that are searched through
 * HNSW), loaded through the data layer with INSERT … SELECT. Wallet sizes above --api-seed-max
 * are seeded the same way; then the HNSW shard indexes are built once. Sizes up to it are
 * seeded through POST /v1/store/batch with the indexes live (the insert throughput; the
 * indexer runs after each response, as in production). Then, with sequential requests: recall
 * at each size (and how its vector source agrees with an exact scan, and its plan), single
 * stores, batch stores, search and list in the largest wallet (measure.ts).
 *
 * Mem0 (mem0.ts): for each size up to --mem0-max-size, a fresh instance given the same
 * texts and asked the same recall queries, alternately with ours.
 */
import { sql } from "drizzle-orm";
import { connectDb } from "../../worker/db/client";
import { BACKLOG_MIN, EXACT_SCAN_MAX } from "../../worker/memories/ann";
import { annAgreement, recallPlan } from "../ann/quality";
import { newWallet, type Wallet } from "../lib/http-client";
import { log, machine } from "../lib/report";
import { buildAnnIndexes, dropAnnIndexes, seedOthers, seedWallet } from "../systems/seed";
import type { Stack } from "../systems/stack";
import {
  inLargest,
  measureRecall,
  RECALL_LIMIT,
  seedViaApi,
  singleStores,
  speedQueries,
  WARM_UP_QUERIES,
} from "./measure";
import { seedMem0, sideBySide } from "./mem0";
import { speedTables } from "./report";
import type { OurSize, SpeedOptions, SpeedOutcome, SpeedResults } from "./types";

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

    const store = await singleStores(newWallet(stack.baseUrl), opts.calls, 1);
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
      largest: largest ? await inLargest(largest, opts.calls) : undefined,
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
