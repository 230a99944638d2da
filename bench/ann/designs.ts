/**
 * Vector index designs side by side (#30), on bge vectors: LoCoMo's and REALTALK's distinct
 * sentences and normalised blends of two, a wallet of SIZE rows among OTHERS rows of other
 * wallets in the same table (the rows one HNSW shard of a million-row table holds: 1M / 32).
 * For each design, on a table of its own: the bulk build over the loaded rows, the insert rate
 * of 1,000 more rows of the wallet (100 a statement, the index live), top-1 and top-10
 * agreement with an exact scan for 300 questions (computed here, in JavaScript), recall's probe
 * (50 nearest) p50 / p95, deduplication's probe (100 vectors near existing rows, the nearest
 * of each, one statement) and how many of those planted near-duplicates it finds, and the
 * index's size. DB=pglite runs the embedded database in this process; otherwise URL names a
 * PostgreSQL server with pgvector (scripts/ci-postgres.sh):
 *
 *   URL=postgres://postgres:postgres@127.0.0.1:55432/postgres SIZE=10000 \
 *     npx tsx bench/ann/designs.ts
 *   DB=pglite SIZE=10000 DESIGNS=hnsw,hnsw-bit,exact npx tsx bench/ann/designs.ts
 *
 * Settings of the designs (designs-list.ts): EF (hnsw.ef_search), OVERSAMPLE (Hamming
 * candidates per result), IVF_SHARE (IVFFlat probes = lists / IVF_SHARE), LSH_BANDS and
 * LSH_BITS (lsh.ts). PLANT_NOISE places the planted duplicates (vectors.ts); EXPLAIN=1
 * prints the deduplication statement's plan.
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { proxiedClient, startWsProxy } from "../../local/db/ws-proxy";
import { percentile } from "../lib/stats";
import { type AnnDesign, DESIGNS } from "./designs-list";
import { benchVectors } from "./vectors";

const SIZE = Number(process.env.SIZE ?? 10_000);
const OTHERS = Number(process.env.OTHERS ?? 31_250);
const INSERTS = 1000;
const chosen = (process.env.DESIGNS ?? DESIGNS.map((d) => d.name).join(",")).split(",");

interface Db {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function openDb(): Promise<Db> {
  if (process.env.DB === "pglite") {
    const pg = await PGlite.create({ extensions: { vector } });
    await pg.exec("CREATE EXTENSION IF NOT EXISTS vector");
    return {
      query: async <T>(text: string, params?: unknown[]) => (await pg.query<T>(text, params)).rows,
      close: () => pg.close(),
    };
  }
  const proxy = await startWsProxy(0);
  const client = proxiedClient(process.env.URL ?? "", proxy);
  await client.connect();
  await client.query("CREATE EXTENSION IF NOT EXISTS vector");
  return {
    query: async <T>(text: string, params?: unknown[]) =>
      (await client.query(text, params)).rows as T[],
    close: async () => {
      await client.end();
      await proxy.close();
    },
  };
}

const lit = (v: Float32Array) => `[${Array.from(v, (x) => x.toFixed(6)).join(",")}]`;

/**
 * Rows of (wallet, vector) into `table` from id `startId`, `per` a statement, with the band
 * keys of a design that has them (lsh.ts, computed here as the Worker would).
 */
async function load(
  db: Db,
  table: string,
  rows: Array<[number, Float32Array]>,
  startId: number,
  per: number,
  keys?: (v: Float32Array) => number[],
) {
  for (let i = 0; i < rows.length; i += per) {
    const part = rows.slice(i, i + per);
    await db.query(
      `INSERT INTO ${table} (id, wallet, e${keys ? ", k" : ""})
       SELECT i, w, v::vector${keys ? ", k::int4[]" : ""}
       FROM unnest($1::int[], $2::int[], $3::text[], $4::text[]) AS u(i, w, v, k)`,
      [
        part.map((_, j) => startId + i + j),
        part.map((r) => r[0]),
        part.map((r) => lit(r[1])),
        part.map((r) => (keys ? `{${keys(r[1]).join(",")}}` : "{}")),
      ],
    );
  }
}

/** Indexes of the `k` largest dot products with `q` among `rows` (unit vectors: cosine). */
function exactTop(q: Float32Array, rows: Float32Array[], k: number): number[] {
  const best: Array<[number, number]> = [];
  rows.forEach((v, i) => {
    let dot = 0;
    for (let d = 0; d < v.length; d++) dot += (v[d] ?? 0) * (q[d] ?? 0);
    if (best.length < k || dot > (best[best.length - 1]?.[0] ?? -2)) {
      best.push([dot, i]);
      best.sort((a, b) => b[0] - a[0]);
      if (best.length > k) best.pop();
    }
  });
  return best.map((b) => b[1]);
}

const ms = (t: number) => performance.now() - t;
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

async function measure(db: Db, design: AnnDesign, data: Awaited<ReturnType<typeof benchVectors>>) {
  const table = `annd_${design.name.replace(/-/g, "_")}`;
  await db.query(`DROP TABLE IF EXISTS ${table}`);
  await db.query(
    `CREATE TABLE ${table} (id int PRIMARY KEY, wallet int NOT NULL, e vector(384) NOT NULL,
      k int4[]${design.columns ?? ""})`,
  );
  await db.query(`CREATE INDEX ON ${table} (wallet)`);
  const base: Array<[number, Float32Array]> = [
    ...data.others.map((v): [number, Float32Array] => [2, v]),
    ...data.wallet.map((v): [number, Float32Array] => [1, v]),
  ];
  const keys = design.keys?.(data.mean);
  await load(db, table, base, 0, 500, keys);
  let t = performance.now();
  for (const stmt of design.build(table, base.length)) await db.query(stmt);
  const buildMs = ms(t);
  await db.query(`ANALYZE ${table}`);
  // 1,000 more rows of the wallet, 100 a statement, the index live.
  const extra = data.extra.map((v): [number, Float32Array] => [1, v]);
  t = performance.now();
  await load(db, table, extra, base.length, 100, keys);
  const insertRate = (INSERTS / ms(t)) * 1000;
  const walletRows = [...data.wallet, ...data.extra];
  const walletIds = [
    ...data.wallet.map((_, i) => data.others.length + i),
    ...data.extra.map((_, i) => base.length + i),
  ];
  for (const s of design.session?.(base.length) ?? []) await db.query(s);
  const probeMs: number[] = [];
  let top1 = 0;
  let overlap = 0;
  for (const q of data.queries) {
    t = performance.now();
    const got = await db.query<{ id: number }>(design.nearest(table, 50), [lit(q)]);
    probeMs.push(ms(t));
    const exact = exactTop(q, walletRows, 10).map((i) => walletIds[i]);
    const ids = got.slice(0, 10).map((r) => r.id);
    if (ids[0] === exact[0]) top1++;
    overlap += ids.filter((id) => exact.includes(id)).length / 10;
  }
  // Deduplication: 100 vectors near existing rows of the wallet (cosine ≈ 0.97), one statement.
  const planted = data.planted.map((p) => ({ id: walletIds[p.row], v: p.v }));
  const dedupParams = [
    planted.map((_, i) => i),
    planted.map((p) => lit(p.v)),
    planted.map((p) => `{${keys?.(p.v).join(",") ?? ""}}`),
  ];
  if (process.env.EXPLAIN) {
    const plan = await db.query<Record<string, string>>(
      `EXPLAIN (ANALYZE, BUFFERS) ${design.dedup(table)}`,
      dedupParams,
    );
    console.log(plan.map((r) => Object.values(r)[0]).join("\n"));
  }
  t = performance.now();
  const found = await db.query<{ i: number; id: number }>(design.dedup(table), dedupParams);
  const dedupMs = ms(t);
  const hits = found.filter((r) => planted[r.i]?.id === r.id).length;
  const [size] = await db.query<{ bytes: string }>(
    `SELECT coalesce(sum(pg_relation_size(indexrelid)), 0)::text AS bytes FROM pg_index
      WHERE indrelid = '${table}'::regclass AND indexrelid <> '${table}_pkey'::regclass
        AND indexrelid <> '${table}_wallet_idx'::regclass`,
  );
  await db.query(`DROP TABLE ${table}`);
  const n = data.queries.length;
  probeMs.sort((a, b) => a - b);
  console.log(
    `| ${design.label} | ${fmt(buildMs / 1000)} s | ${fmt(insertRate)} | ${fmt((top1 / n) * 100)}% / ${fmt((overlap / n) * 100)}% | ${fmt(percentile(probeMs, 50))} / ${fmt(percentile(probeMs, 95))} ms | ${fmt(dedupMs)} ms, ${hits} of ${planted.length} | ${fmt(Number(size?.bytes ?? 0) / 2 ** 20)} MB |`,
  );
}

const db = await openDb();
const data = await benchVectors(SIZE, OTHERS, INSERTS);
console.log(
  `\n${process.env.DB === "pglite" ? "PGlite" : "PostgreSQL"}: a wallet of ${SIZE} (+${INSERTS} inserted) among ${OTHERS} other rows, ${data.queries.length} questions\n`,
);
console.log(
  "| design | bulk build | inserts a second | top-1 / top-10 agreement | recall probe p50 / p95 | dedup probe (100), found | index size |",
);
console.log("|---|---|---|---|---|---|---|");
for (const design of DESIGNS.filter((d) => chosen.includes(d.name))) {
  await measure(db, design, data);
}
await db.close();
