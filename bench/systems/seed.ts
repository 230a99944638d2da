/**
 * Seeding through the data layer, for sizes the API would take too long to fill: a wallet of
 * synthetic memories (embedded by the run's embedder), and the "other wallets" around the
 * measured ones, built in Postgres with INSERT … SELECT from a small embedded pool (each row a
 * pool vector plus noise, renormalised), so a million rows take minutes, not hours.
 *
 * Wallets above the run's GRAPH_MIN are marked indexed (`ann`), as the service's indexer would
 * leave them; the HNSW indexes are dropped before a bulk load and built once after it
 * (inserting row by row costs ~1 ms a row).
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { ANN_SHARDS, memories, users } from "../../schema/tables";
import type { Db } from "../../worker/db/client";
import type { Embedder } from "../../worker/embed/embedder";
import { log } from "../lib/report";
import { prng, sentence, TYPES } from "../lib/synthetic";

/** The index DDL of schema/migrations/0006_ann_shards.sql, one statement per shard. */
const annIndexes = () =>
  Array.from(
    { length: ANN_SHARDS },
    (_, i) =>
      `CREATE INDEX IF NOT EXISTS "memories_embedding_s${i}_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = ${i}`,
  );

export async function dropAnnIndexes(db: Db): Promise<void> {
  for (let i = 0; i < ANN_SHARDS; i++) {
    await db.execute(sql.raw(`DROP INDEX IF EXISTS "memories_embedding_s${i}_idx"`));
  }
}

/** Builds the shard indexes over the rows marked `ann` (bulk builds, not row by row). */
export async function buildAnnIndexes(db: Db): Promise<number> {
  const started = Date.now();
  for (const ddl of annIndexes()) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL maintenance_work_mem = '1GB'`);
      await tx.execute(sql.raw(ddl));
    });
  }
  const seconds = (Date.now() - started) / 1000;
  log(`HNSW shard indexes built in ${seconds.toFixed(1)} s`);
  return seconds;
}

async function newUser(db: Db, address: string): Promise<string> {
  const [user] = await db
    .insert(users)
    .values({ wallet: address.toLowerCase() })
    .returning({ id: users.id });
  if (!user) throw new Error("user insert failed");
  return user.id;
}

/** `count` synthetic memories for `address` through the data layer; returns their texts. */
export async function seedWallet(
  db: Db,
  embedder: Embedder,
  address: string,
  count: number,
  seed: number,
  graphMin: number,
): Promise<string[]> {
  const r = prng(seed);
  const userId = await newUser(db, address);
  const texts: string[] = [];
  const now = Date.now();
  const indexed = count > graphMin;
  for (let done = 0; done < count; done += 500) {
    const n = Math.min(500, count - done);
    const contents = Array.from({ length: n }, () => sentence(r));
    texts.push(...contents);
    const { vectors } = await embedder.embed(contents);
    await db.insert(memories).values(
      contents.map((content, i) => {
        const created = new Date(now - Math.floor(r() * 90 * 86_400_000));
        return {
          userId,
          createdBy: address.toLowerCase(),
          content,
          importance: Math.round(r() * 100) / 100,
          memoryType: TYPES[Math.floor(r() * TYPES.length)] ?? "general",
          embedding: vectors[i],
          embeddingModel: embedder.model,
          contentHash: createHash("sha256").update(content).digest("hex"),
          createdAt: created,
          updatedAt: created,
          accessedAt: created,
          ann: indexed,
        };
      }),
    );
    if ((done / 500) % 20 === 19) log(`  … ${done + n} / ${count}`);
  }
  return texts;
}

export interface OthersPlan {
  /** Rows in all. */
  rows: number;
  /** Of them, in wallets of 10,000; the rest in wallets of 1,000. */
  largeRows: number;
  /** Wallets above this many memories are marked indexed (the run's GRAPH_MIN). */
  graphMin: number;
}

const POOL = 4000;
const NOISE = 0.35;

/**
 * The other wallets: `plan.rows` memories, `plan.largeRows` of them in wallets of 10,000
 * (indexed) and the rest in wallets of 1,000 (exact-scanned, as most wallets are). Each row's
 * vector is a pool vector plus Gaussian-ish noise (a sum of uniforms) of norm ~NOISE,
 * renormalised, so rows are distinct but keep the pool's structure; texts are pool texts
 * with a serial number.
 */
export async function seedOthers(db: Db, embedder: Embedder, plan: OthersPlan): Promise<void> {
  if (plan.rows === 0) return;
  const started = Date.now();
  const r = prng(424242);
  const texts = Array.from({ length: POOL }, () => sentence(r));
  const vectors: number[][] = [];
  for (let i = 0; i < POOL; i += 500) {
    vectors.push(...(await embedder.embed(texts.slice(i, i + 500))).vectors);
  }
  await db.execute(sql`CREATE UNLOGGED TABLE bench_pool (i int PRIMARY KEY, t text, v vector)`);
  for (let i = 0; i < POOL; i += 500) {
    const values = texts
      .slice(i, i + 500)
      .map((t, j) => sql`(${i + j}, ${t}, ${`[${(vectors[i + j] ?? []).join(",")}]`}::vector)`);
    await db.execute(sql`INSERT INTO bench_pool VALUES ${sql.join(values, sql`, `)}`);
  }
  const dims = vectors[0]?.length ?? 384;
  // A pool of noise vectors, each coordinate a centred sum of three uniforms.
  await db.execute(sql`
    CREATE UNLOGGED TABLE bench_noise AS
    SELECT n AS i, (SELECT array_agg(((random() + random() + random()) - 1.5)
        * ${NOISE / Math.sqrt(dims * 0.25)})::vector
      FROM generate_series(1, ${dims}) WHERE n >= 0) AS v
    FROM generate_series(0, 997) n`);
  const wallets = [
    ...Array.from({ length: Math.floor(plan.largeRows / 10_000) }, () => 10_000),
    ...Array.from({ length: Math.floor((plan.rows - plan.largeRows) / 1_000) }, () => 1_000),
  ];
  let done = 0;
  for (const [w, size] of wallets.entries()) {
    const wallet = `0x${createHash("sha256").update(`other-${w}`).digest("hex").slice(0, 40)}`;
    const userId = await newUser(db, wallet);
    // created_by (NOT NULL since sharing, migration 0012): the owner's lower-case wallet, as
    // for every memory a wallet stores itself.
    await db.execute(sql`
      INSERT INTO memories (user_id, created_by, content, embedding, embedding_model,
        content_hash, importance, created_at, updated_at, accessed_at, ann)
      SELECT ${userId}, ${wallet.toLowerCase()}, p.t || ' #' || s, l2_normalize(p.v + n.v),
        ${embedder.model}, md5(p.t || s), round(random()::numeric, 2),
        now() - random() * interval '90 days', now(), now(), ${size > plan.graphMin}
      FROM generate_series(1, ${size}) s
      JOIN bench_pool p ON p.i = (s * 7919 + ${w * 104729}) % ${POOL}
      JOIN bench_noise n ON n.i = (s * 31 + ${w}) % 998`);
    done += size;
    if (w % 100 === 99 || done === plan.rows)
      log(`  … ${done.toLocaleString("en")} / ${plan.rows.toLocaleString("en")} other memories`);
  }
  await db.execute(sql`DROP TABLE bench_pool, bench_noise`);
  log(`other wallets seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
