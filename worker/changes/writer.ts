/**
 * Who makes a change, said in the write statement itself: the feed's triggers (migration 0014)
 * read it as the event's `created_by`. A condition to AND into the statement's WHERE: it is
 * evaluated for the rows the statement changes (so before its triggers run), lasts to the end
 * of the transaction, and costs no round trip. Unsaid, the event names the memory's writer.
 */
import { type SQL, sql } from "drizzle-orm";

export function writtenBy(wallet: string): SQL {
  return sql`set_config('memory.writer', ${wallet.toLowerCase()}, true) IS NOT NULL`;
}

/** How a change was made, when it is not a plain call: a deduplicating merge, a consolidation. */
export function changedVia(how: "merge" | "consolidation"): SQL {
  return sql`set_config('memory.change', ${how}, true) IS NOT NULL`;
}

/**
 * Both, for the rest of a transaction of several statements (a consolidation): one statement
 * of its own, where a single-statement write puts writtenBy in its WHERE instead.
 */
export function markTransaction(wallet: string, how: "consolidation"): SQL {
  return sql`SELECT ${writtenBy(wallet)}, ${changedVia(how)}`;
}
