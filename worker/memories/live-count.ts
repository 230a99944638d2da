/**
 * A wallet's number of live memories (not deleted, not expired), all or one namespace's,
 * without counting its rows: the sum of memory_counts (kept by triggers, schema/tables.ts)
 * minus the rows whose expiry has passed (an index of live rows with an expiry). List and
 * count use it when nothing but the namespace filters them.
 */
import { type SQL, sql } from "drizzle-orm";
import { memories, memoryCounts } from "../../schema/tables";
import type { DbOrTx } from "../db/client";
import { isLiveAs, undeletedMemory } from "./rows";

/** A wallet's memory_counts rows are folded into one per namespace above this many. */
const FOLD_ABOVE = 32;

export interface LiveTotal {
  total: number;
  /** Whether the wallet's change rows should be folded (foldLiveCounts). */
  foldable: boolean;
}

/**
 * The sum of a wallet's memory_counts rows, all or one namespace's: its live memories, the
 * expired ones included. An index scan of at most FOLD_ABOVE rows or so, no memory visited.
 */
export const countedLive = (userId: string, namespace?: string) =>
  sql`coalesce((SELECT sum(${memoryCounts.live}) FROM ${memoryCounts}
    WHERE ${memoryCounts.userId} = ${userId}
      ${namespace === undefined ? sql`` : sql`AND ${memoryCounts.namespace} = ${namespace}`}), 0)::int`;

/**
 * `total` (the wallet's or namespace's live memories, without the replaced ones unless
 * `withReplaced`) and `pieces` (its memory_counts rows, up to FOLD_ABOVE + 1) as two columns,
 * for a statement that reads them beside other work. The replaced ones are counted from the
 * wallet's `supersedes` relations (relations_user_idx), not from its memories.
 */
export function liveTotalColumns(userId: string, namespace?: string, withReplaced = false): SQL {
  const inNamespace =
    namespace === undefined ? sql`` : sql`AND ${memories.namespace} = ${namespace}`;
  const replaced = withReplaced
    ? sql``
    : sql`- (SELECT count(DISTINCT r.target_id) FROM relations r
        JOIN memories t ON t.id = r.target_id JOIN memories s ON s.id = r.source_id
        WHERE r.user_id = ${userId} AND r.relation_type = 'supersedes'
          AND ${isLiveAs("t")} AND ${isLiveAs("s")}
          ${namespace === undefined ? sql`` : sql`AND t.namespace = ${namespace}`})::int`;
  return sql`${countedLive(userId, namespace)}
      - (SELECT count(*) FROM ${memories}
        WHERE ${undeletedMemory({ userId })} AND ${memories.expiresAt} IS NOT NULL AND ${memories.expiresAt} <= now()
          ${inNamespace})::int ${replaced} AS total,
      (SELECT count(*) FROM (SELECT 1 FROM ${memoryCounts} WHERE ${memoryCounts.userId} = ${userId}
        LIMIT ${FOLD_ABOVE + 1}) s)::int AS pieces`;
}

/** Reads liveTotalColumns' answer. */
export function liveTotalOf(row: { total?: unknown; pieces?: unknown } | undefined): LiveTotal {
  return { total: Number(row?.total ?? 0), foldable: Number(row?.pieces ?? 0) > FOLD_ABOVE };
}

export async function liveTotal(
  db: DbOrTx,
  userId: string,
  namespace?: string,
): Promise<LiveTotal> {
  const result = await db.execute<{ total: number; pieces: number }>(
    sql`SELECT ${liveTotalColumns(userId, namespace)}`,
  );
  return liveTotalOf(result.rows[0]);
}

/**
 * Replaces a wallet's memory_counts rows by one per namespace (none for a namespace at 0),
 * when it has more than FOLD_ABOVE. One statement: a row appended meanwhile by a concurrent
 * write is not in its snapshot, so it is neither deleted nor counted, and stays.
 */
export async function foldLiveCounts(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`
    WITH many AS (
      SELECT count(*) > ${FOLD_ABOVE} AS yes FROM (SELECT 1 FROM ${memoryCounts}
        WHERE ${memoryCounts.userId} = ${userId} LIMIT ${FOLD_ABOVE + 1}) s
    ),
    gone AS (
      DELETE FROM ${memoryCounts}
      WHERE ${memoryCounts.userId} = ${userId} AND (SELECT yes FROM many)
      RETURNING ${memoryCounts.namespace} AS namespace, ${memoryCounts.live} AS live
    )
    INSERT INTO ${memoryCounts} (user_id, namespace, live)
    SELECT ${userId}::uuid, namespace, sum(live) FROM gone GROUP BY namespace HAVING sum(live) <> 0`);
}
