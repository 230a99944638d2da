/**
 * What approximate search costs in quality, and which plan recall uses.
 *
 * `annAgreement`: for each query vector, the nearest memories of the wallet as recall's vector
 * source finds them (its HNSW shard, plus its rows not indexed yet, compared exactly; see
 * worker/memories/ann.ts) against an exact scan of every live memory of the wallet: how often
 * the first is the same, and how many of the exact ten are among the ten found.
 *
 * `recallPlan`: EXPLAIN ANALYZE of recall's statement for one query, reduced to the lines
 * that say how candidates were found (which index, how many rows, how long).
 */
import { and, type SQL, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import { vectorLiteral } from "../../schema/vector-literal";
import type { Db } from "../../worker/db/client";
import {
  annQueryVector,
  annRows,
  backlogRows,
  efSearchCap,
  recallEfSearch,
} from "../../worker/memories/ann";
import { filterConditions } from "../../worker/memories/list";
import { countedLive } from "../../worker/memories/live-count";
import { liveMemory } from "../../worker/memories/rows";
import { recallStatement } from "../../worker/recall/candidates";
import { commonLexemes } from "../../worker/recall/common-lexemes";

export interface Agreement {
  queries: number;
  /** Share of queries whose nearest memory is the exact nearest. */
  top1: number;
  /** Mean share of the exact ten nearest among the ten found. */
  overlap10: number;
  /** The hnsw.ef_search it was measured at: recall's for the wallet's size. */
  efSearch: number;
}

async function nearestIds(db: Db, where: SQL, v: string, exact: boolean): Promise<string[]> {
  const order = exact
    ? sql`(${memories.embedding} <=> ${v}::vector) + 0`
    : sql`${memories.embedding} <=> ${v}::vector`;
  const rows = await db.execute<{ id: string; d: number }>(sql`
    SELECT ${memories.id} AS id, ${memories.embedding} <=> ${v}::vector AS d FROM ${memories}
    WHERE ${where} ORDER BY ${order} LIMIT 10`);
  return rows.rows.map((r) => r.id);
}

export async function annAgreement(
  db: Db,
  userId: string,
  model: string,
  vectors: number[][],
  efSearch?: number,
): Promise<Agreement> {
  const ef = efSearch ?? (await walletEfSearch(db, userId));
  const scope = sql`${liveMemory({ userId })} AND ${memories.embeddingModel} = ${model}`;
  let top1 = 0;
  let overlap = 0;
  for (const vector of vectors) {
    const v = vectorLiteral(vector);
    const exact = await nearestIds(db, scope, v, true);
    // As recall's vec_ann (at its depth, annQueryVector) and vec_backlog sources, merged by
    // distance.
    const found = await db.execute<{ id: string }>(sql`
      SELECT id FROM (
        (SELECT ${memories.id} AS id, ${memories.embedding} <=> ${v}::vector AS d FROM ${memories}
          WHERE ${scope} AND ${annRows(userId)}
          ORDER BY ${memories.embedding} <=> ${annQueryVector(v, ef)}
          LIMIT 10)
        UNION ALL
        (SELECT ${memories.id}, ${memories.embedding} <=> ${v}::vector FROM ${memories}
          WHERE ${scope} AND ${backlogRows}
          ORDER BY (${memories.embedding} <=> ${v}::vector) + 0 LIMIT 10)
      ) c ORDER BY d LIMIT 10`);
    const ids = found.rows.map((r) => r.id);
    if (ids[0] !== undefined && ids[0] === exact[0]) top1 += 1;
    overlap += exact.filter((id) => ids.includes(id)).length / Math.max(1, exact.length);
  }
  const n = Math.max(1, vectors.length);
  return { queries: vectors.length, top1: top1 / n, overlap10: overlap / n, efSearch: ef ?? 100 };
}

/** The search depth recall uses for this wallet (recallEfSearch), or undefined for the default. */
async function walletEfSearch(db: Db, userId: string): Promise<number | undefined> {
  const size = await db.execute<{ n: number; cap: string | null }>(
    sql`SELECT ${countedLive(userId)} AS n, ${efSearchCap} AS cap`,
  );
  return recallEfSearch(Number(size.rows[0]?.n ?? 0), size.rows[0]?.cap);
}

/** How recall found its candidates for one query: the plan lines of its candidate sources. */
export async function recallPlan(
  db: Db,
  userId: string,
  model: string,
  semantic: boolean,
  query: string,
  vector: number[],
): Promise<string[]> {
  const statement = recallStatement({
    userId,
    where: and(...filterConditions({ userId }, {})) as SQL,
    sizeWhere: and(...filterConditions({ userId }, {}, "undeleted")) as SQL,
    exact: false,
    commonLexemes: await commonLexemes(db),
    queries: [{ text: query, vector: vectorLiteral(vector) }],
    model,
    semantic,
    k: 50,
    efSearch: await walletEfSearch(db, userId),
    take: 15,
    now: Date.now(),
  });
  const plan = await db.execute<{ "QUERY PLAN": string }>(
    sql`EXPLAIN (ANALYZE, COSTS OFF) ${statement}`,
  );
  const lines = plan.rows.map((r) => r["QUERY PLAN"]);
  return lines.filter((line) =>
    /CTE (vec_ann|vec_backlog|kw)|Index Scan using memories_embedding|Index Scan using memories_ann_backlog|Bitmap Index Scan|Execution Time/.test(
      line,
    ),
  );
}
