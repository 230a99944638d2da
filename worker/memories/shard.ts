/**
 * A wallet's shard: `memories.shard`, a byte of the owner's id modulo ANN_SHARDS, a generated
 * column. The vector (HNSW) and full-text (GIN) indexes are split into one partial index per
 * shard, so a wallet's search walks ~1/32 of the table's entries: a keyword's posting list
 * in one shard, not across every wallet (at a million rows, a global GIN bitmap of a query's
 * lexemes took 17-19 ms of a 36 ms recall). A query names its shard as a literal, so that
 * the planner can match the partial index's predicate (a parameter would not).
 */
import { type SQL, sql } from "drizzle-orm";
import { ANN_SHARDS, memories } from "../../schema/tables";

/** The shard of a user id, as the generated column `memories.shard` computes it. */
export function shardOf(userId: string): number {
  return Number.parseInt(userId.slice(0, 2), 16) % ANN_SHARDS;
}

/** `memories.shard = <the wallet's shard>`, as a literal. */
export const inShard = (userId: string): SQL =>
  sql`${memories.shard} = ${sql.raw(String(shardOf(userId)))}`;
