/**
 * The vector index designs designs.ts measures, each as the statements that build it on a
 * loaded table and the two searches the service makes: recall's 50 nearest vectors of the
 * wallet (re-sorted by distance: iterative scans return them in relaxed order), and
 * deduplication's nearest vector for each of a batch's items, in one statement. $1 of
 * `nearest` is the query vector; $1, $2 and $3 of `dedup` are the items' numbers, vectors and
 * keys (column `k`, for a design that has them).
 */
import { BANDS, BITS, lshKeys } from "./lsh";

export interface AnnDesign {
  name: string;
  label: string;
  /** Extra columns of the table (after `e vector(384)`). */
  columns?: string;
  build: (table: string, rows: number) => string[];
  /** The column `k`'s keys of a vector, for a design that has them (the corpus mean given). */
  keys?: (mean: Float32Array) => (v: Float32Array) => number[];
  /** Settings of the session, before the searches. */
  session?: (rows: number) => string[];
  nearest: (table: string, k: number) => string;
  dedup: (table: string) => string;
}

const EF = Number(process.env.EF ?? 100);
/** Hamming candidates per result re-ranked by cosine, for the binary designs. */
const OVERSAMPLE = Number(process.env.OVERSAMPLE ?? 4);
/** IVFFlat searches this share of its lists (1 / IVF_SHARE). */
const IVF_SHARE = Number(process.env.IVF_SHARE ?? 10);
const HAMMING = Number(process.env.HAMMING ?? 96);
const HNSW_SESSION = () => [
  `SET hnsw.ef_search = ${EF}`,
  "SET hnsw.iterative_scan = relaxed_order",
];

const bits = (v: string) => `binary_quantize(${v})::bit(384)`;
const sorted = (inner: string) => `SELECT id FROM (${inner}) s ORDER BY d`;
// The items, their vectors parsed once: cast inside a LATERAL, or unnest as the inner side
// of a join, the text was parsed again for every row compared (13 s for 100 items at 11k).
const items = `WITH p AS MATERIALIZED (SELECT i, v::vector AS v, ${bits("v::vector")} AS b,
    v::halfvec(384) AS h, k::int4[] AS k FROM unnest($1::int[], $2::text[], $3::text[]) AS u(i, v, k))`;
/** Every row within cosine 0.95 of an item, by a join that reads the wallet's rows once. */
const dedupJoin = (table: string, on: string, dist: string) =>
  `${items} SELECT DISTINCT ON (p.i) p.i, t.id FROM p JOIN ${table} t ON t.wallet = 1 AND ${on}
   WHERE ${dist} < 0.05 ORDER BY p.i, ${dist}`;

/** Nearest of each item by `order` (of `n`), then the best by cosine among those n. */
const dedupVia = (table: string, order: string, n: number) =>
  `${items} SELECT p.i, n.id FROM p CROSS JOIN LATERAL (
     SELECT id FROM (SELECT id, e FROM ${table} WHERE wallet = 1 ORDER BY ${order} LIMIT ${n}) c
     ORDER BY e <=> p.v LIMIT 1) n`;

/** The wallet's k nearest by cosine on `e`, through whichever index the table has. */
const byCosine = (t: string, k: number) =>
  sorted(`SELECT id, e <=> $1::vector AS d FROM ${t} WHERE wallet = 1
    ORDER BY e <=> $1::vector LIMIT ${k}`);

const hnswOnVector = (efc: number, note: string): AnnDesign => ({
  name: efc === 64 ? "hnsw" : `hnsw-efc${efc}`,
  label: `HNSW on vector(384), m 16, ef_construction ${efc}${note}, ef_search ${EF}`,
  build: (t) => [
    `CREATE INDEX ON ${t} USING hnsw (e vector_cosine_ops) WITH (m = 16, ef_construction = ${efc})`,
  ],
  session: HNSW_SESSION,
  nearest: byCosine,
  dedup: (t) => dedupVia(t, "e <=> p.v", 1),
});

export const DESIGNS: AnnDesign[] = [
  {
    name: "lsh",
    label: `no vector index: an exact scan for recall; deduplication by ${BANDS} LSH band keys of ${BITS} bits in a GIN index`,
    keys: (mean) => lshKeys(mean),
    build: (t) => [`CREATE INDEX ON ${t} USING gin (k)`],
    nearest: byCosine,
    // Per item, so that each reads its candidates through the index: flattened into a join
    // (which OFFSET 0 prevents), the overlap test ran on every pair, 6 s for 100 items at 11k.
    dedup: (t) => `${items} SELECT DISTINCT ON (p.i) p.i, c.id FROM p CROSS JOIN LATERAL (
      SELECT id, e <=> p.v AS d FROM ${t} WHERE wallet = 1 AND k && p.k OFFSET 0) c
      WHERE c.d < 0.05 ORDER BY p.i, c.d`,
  },
  hnswOnVector(64, " (today)"),
  hnswOnVector(32, ""),
  {
    name: "hnsw-bit",
    label: `HNSW on binary_quantize(e)::bit(384) (bit_hamming_ops), ${OVERSAMPLE}× re-ranked by cosine`,
    build: (t) => [
      `CREATE INDEX ON ${t} USING hnsw ((${bits("e")}) bit_hamming_ops) WITH (m = 16, ef_construction = 64)`,
    ],
    session: () => [
      `SET hnsw.ef_search = ${Math.max(EF, 50 * OVERSAMPLE)}`,
      "SET hnsw.iterative_scan = relaxed_order",
    ],
    nearest: (t, k) =>
      sorted(`SELECT id, e <=> $1::vector AS d FROM (SELECT id, e FROM ${t} WHERE wallet = 1
        ORDER BY ${bits("e")} <~> ${bits("$1::vector")} LIMIT ${k * OVERSAMPLE}) c
        ORDER BY d LIMIT ${k}`),
    dedup: (t) => dedupVia(t, `${bits("e")} <~> p.b`, 10),
  },
  {
    name: "ivfflat",
    label: `IVFFlat on vector(384), lists = rows / 1000, probes = lists / ${IVF_SHARE}`,
    build: (t, rows) => [
      `CREATE INDEX ON ${t} USING ivfflat (e vector_cosine_ops) WITH (lists = ${Math.ceil(rows / 1000)})`,
    ],
    session: (rows) => [
      `SET ivfflat.probes = ${Math.max(1, Math.ceil(rows / 1000 / IVF_SHARE))}`,
      "SET ivfflat.iterative_scan = relaxed_order",
    ],
    nearest: byCosine,
    dedup: (t) => dedupVia(t, "e <=> p.v", 1),
  },
  {
    name: "exact",
    label: "no vector index: an exact scan of vector(384)",
    build: () => [],
    nearest: byCosine,
    dedup: (t) => dedupJoin(t, "t.e <=> p.v < 0.05", "t.e <=> p.v"),
  },
  {
    name: "exact-half",
    label: "no vector index: an exact scan of a stored halfvec(384)",
    columns: ", h halfvec(384) GENERATED ALWAYS AS (e::halfvec(384)) STORED",
    build: () => [],
    nearest: (t, k) =>
      sorted(`SELECT id, h <=> $1::halfvec(384) AS d FROM ${t} WHERE wallet = 1
        ORDER BY h <=> $1::halfvec(384) LIMIT ${k}`),
    dedup: (t) => dedupJoin(t, "t.h <=> p.h < 0.05", "t.h <=> p.h"),
  },
  {
    name: "exact-bit",
    label: `no vector index: an exact Hamming scan of a stored bit(384), ${OVERSAMPLE}× re-ranked`,
    columns: `, b bit(384) GENERATED ALWAYS AS (${bits("e")}) STORED`,
    build: () => [],
    nearest: (t, k) =>
      sorted(`SELECT id, e <=> $1::vector AS d FROM (SELECT id, e FROM ${t} WHERE wallet = 1
        ORDER BY b <~> ${bits("$1::vector")} LIMIT ${k * OVERSAMPLE}) c ORDER BY d LIMIT ${k}`),
    // Candidates differ in at most HAMMING (96, a quarter) of the 384 signs: every planted item
    // at cosine 0.97 stays in.
    dedup: (t) => dedupJoin(t, `t.b <~> p.b <= ${HAMMING}`, "t.e <=> p.v"),
  },
];
