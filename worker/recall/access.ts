import { and, eq, inArray, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";

/**
 * Counts an access for each recalled memory. It is issued before the response is sent (so
 * the per-request pool is still open) and awaited through waitUntil, off the response path.
 *
 * Only the owner's own reads count. `access_count` and `accessed_at` are the owner's signals
 * (recall's access boost and decay, suggested's hot and stale): a grantee reading through
 * `?owner=` leaves them as they are, so another wallet's reads never reorder the owner's
 * memories (docs/sharing.md).
 */
export function recordAccess(ctx: DomainContext, ids: string[]): Promise<void> {
  if (ids.length === 0 || ctx.grant) return Promise.resolve();
  return ctx.db
    .update(memories)
    .set({ accessCount: sql`${memories.accessCount} + 1`, accessedAt: sql`now()` })
    .where(and(eq(memories.userId, ctx.userId), inArray(memories.id, ids)))
    .then(() => undefined);
}
