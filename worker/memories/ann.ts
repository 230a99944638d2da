/**
 * How nearest vectors are found, and how rows get into the approximate (HNSW) index.
 *
 * - A scope (the caller's memories after filters) of at most EXACT_SCAN_MAX memories is
 *   scanned exactly: a few thousand distances take milliseconds and miss nothing, where a
 *   filtered approximate scan of a small scope inside a large table is slowest and least
 *   complete (it walks other wallets' vectors looking for the caller's).
 * - Above it, the nearest vectors are those of the wallet's shard of the HNSW index (rows with
 *   `ann`), plus an exact scan of the wallet's rows not in it (the backlog).
 * - A wallet of at most GRAPH_MIN memories has no rows in the graph at all: its backlog is the
 *   whole wallet, so its nearest vectors are exact.
 *
 * The HNSW index is split into partial indexes by the wallet's shard (shard.ts), so a search
 * walks one shard's graph (~1/32 of the indexed rows) and never needs the whole index in
 * memory.
 *
 * Inserting a row into HNSW costs 2.3-2.8 ms on bge vectors at 10k on a server, 7-8 ms in
 * WebAssembly (docs/benchmarks.md, "Vector index designs side by side"), more than the rest of
 * a batch store. So stores write `ann = false`, and `indexBacklog` flips a wallet's backlog
 * after the response, only for wallets above GRAPH_MIN and once BACKLOG_MIN rows are waiting:
 * most wallets never pay for a graph, and a large one pays in chunks.
 */
import { type SQL, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import { background } from "../db/background";
import type { DbOrTx } from "../db/client";
import { undeletedMemory } from "./rows";
import { inShard } from "./shard";

/** Scopes of at most this many memories are searched exactly (see the module comment). */
export const EXACT_SCAN_MAX = 2000;

/**
 * Wallets of at most this many live memories are never put in the graph (an operator can
 * choose a larger size with the Worker variable GRAPH_MIN, Env). In the bench's isolated
 * tables (docs/benchmarks.md, "Vector index designs side by side") an exact scan of 11,000
 * rows was as fast as the graph, but in the service's own table (wide rows, 100,000 rows of
 * other wallets) a wallet of 10,000 without a graph spent 48 ms in recall's SQL against 32 on
 * PostgreSQL (32 against 18 embedded), and stored batches no faster there (1.6× faster
 * embedded; docs/benchmarks.md, "Neighbours"): so the graph still starts where exact recall
 * ends.
 */
export const GRAPH_MIN = EXACT_SCAN_MAX;

/**
 * How many memories match `where`, counted only up to `max` + 1 (a scalar subquery;
 * EXACT_SCAN_MAX by default): all that choosing between exact and approximate search needs,
 * and with an owner test and no expiry test, an index-only scan that stops at the limit.
 */
export const scopeSize = (where: SQL, max = EXACT_SCAN_MAX) =>
  sql`(SELECT count(*)::int FROM (SELECT 1 FROM ${memories} WHERE ${where}
    LIMIT ${max + 1}) s)`;

/** Whether a scope of this size (scopeSize) is searched exactly. */
export const isExactScope = (size: number) => size <= EXACT_SCAN_MAX;

/** The database's hnsw.ef_search (migration 0002; PGlite's session defaults). */
const EF_SEARCH_DEFAULT = 100;
const EF_SEARCH_MAX = 200;

/**
 * The database's own cap on recall's search depth, if it sets one: the embedded database
 * sets 100 (local/db/start.ts), since in WebAssembly a search at 200 cost recall ~20 ms at
 * 100k memories, five times what it costs on a server. An operator can set it on a server
 * too (`ALTER DATABASE … SET memory_service.ef_search_max = …`).
 */
export const efSearchCap = sql`current_setting('memory_service.ef_search_max', true)`;

/**
 * The HNSW search depth (hnsw.ef_search) for recall in a wallet of `size` live memories, or
 * undefined for the database's default. A larger graph needs a deeper search for the same
 * agreement with an exact scan. Measured with bge vectors (LoCoMo sentences and blends of
 * two, LoCoMo questions as queries; docs/benchmarks.md): top-1 99.7% at 10k with ef 40; at
 * 100k 94-95% with ef 100, 97.7-99.5% with 200 and 99.0-100% with 400, for ~5, ~7 and ~11 ms a
 * probe. On the bench's lexical vectors (near random, the worst case for HNSW) 200 costs recall
 * ~3 ms at 100k and 400 ~20 ms, so the depth grows with the wallet, one step per 500
 * memories above 50,000, up to 200 or the database's cap (efSearchCap, read as text).
 */
export function recallEfSearch(size: number, cap?: string | null): number | undefined {
  const max = Number.parseInt(cap ?? "", 10);
  const ef = Math.min(Number.isFinite(max) ? max : EF_SEARCH_MAX, Math.ceil(size / 500));
  return ef > EF_SEARCH_DEFAULT ? ef : undefined;
}

/**
 * The query vector (a pgvector literal) to order a search of the HNSW shard by, searching it at
 * depth `efSearch` when given. The depth comes with the vector: an uncorrelated subquery sets
 * hnsw.ef_search for the statement's transaction (is_local: a statement outside BEGIN is a
 * transaction of its own, so the setting ends with it), Postgres runs that subquery when the
 * index scan starts, and pgvector reads the setting on the scan's first row. In a transaction
 * of BEGIN, set_config, the statement and COMMIT, the depth cost three more round trips.
 */
export function annQueryVector(v: string, efSearch?: number): SQL {
  return efSearch === undefined
    ? sql`${v}::vector`
    : sql`(SELECT ${v}::vector
        FROM (SELECT set_config('hnsw.ef_search', ${String(efSearch)}, true)) AS depth)`;
}

/**
 * Rows flipped into the index per statement: each takes ~1 ms of HNSW insertion on a server.
 * A database can set fewer with `memory_service.index_chunk`: the embedded one sets 10
 * (local/db/start.ts), since in WebAssembly a row takes 2-9 ms and every other client waits
 * for the statement.
 */
const INDEX_CHUNK = 100;
export const indexChunk = (setting: string | null | undefined): number => {
  const n = Number.parseInt(setting ?? "", 10);
  return n >= 1 && n <= INDEX_CHUNK ? n : INDEX_CHUNK;
};
/**
 * The indexer waits for this many un-indexed rows: below it, the exact scan of the backlog
 * costs little (one probe against 500 rows is ~0.1 ms), and indexing a row or two after every
 * store kept the HNSW shard's pages busy under the next store's search.
 */
export const BACKLOG_MIN = 500;
/** How long one indexer run keeps going; the next write of the wallet resumes it. */
const INDEX_BUDGET_MS = 20_000;

/** The caller's indexed rows, naming the partial index they are in. */
export const annRows = (userId: string) => sql`${memories.ann} AND ${inShard(userId)}`;

/** Rows not in the HNSW index (matches the memories_ann_backlog_idx predicate). */
export const backlogRows = sql`NOT ${memories.ann}`;

/**
 * Puts the wallet's un-indexed live memories into its HNSW shard, if the wallet has more than
 * `minSize` memories (GRAPH_MIN, or the Worker's setting). Safe to run concurrently: each
 * chunk skips rows another run has locked. Returns how many rows it indexed.
 */
export async function indexBacklog(db: DbOrTx, userId: string, minSize: number): Promise<number> {
  const sizes = await db.execute<{ live: number; backlog: number; chunk: string | null }>(
    background(sql`
    SELECT
      ${scopeSize(undeletedMemory({ userId }), minSize)} AS live,
      (SELECT count(*)::int FROM (SELECT 1 FROM ${memories} WHERE ${undeletedMemory({ userId })}
        AND ${backlogRows} LIMIT ${BACKLOG_MIN}) b) AS backlog,
      current_setting('memory_service.index_chunk', true) AS chunk`),
  );
  const { live = 0, backlog = 0, chunk: chunkSetting } = sizes.rows[0] ?? {};
  if (live <= minSize || backlog < BACKLOG_MIN) return 0;
  const chunk = indexChunk(chunkSetting);
  const started = Date.now();
  let total = 0;
  for (;;) {
    // In no particular order: ordered by created_at, Postgres walked the wallet's live rows
    // oldest first (memories_user_live_idx) past every indexed one to reach the backlog, the
    // newest rows: 95 ms a chunk at 10k memories, growing with the wallet. Unordered, it reads
    // the backlog's own partial index (memories_ann_backlog_idx): 0.5 ms.
    const flipped = await db.execute(
      background(sql`
      UPDATE ${memories} SET ann = true
      WHERE ${memories.id} IN (
        SELECT ${memories.id} FROM ${memories}
        WHERE ${undeletedMemory({ userId })} AND ${backlogRows}
        LIMIT ${chunk}
        FOR UPDATE SKIP LOCKED)`),
    );
    const n = flipped.rowCount ?? 0;
    total += n;
    if (n < chunk || Date.now() - started > INDEX_BUDGET_MS) return total;
  }
}
