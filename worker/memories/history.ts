import { and, asc, eq } from "drizzle-orm";
import { memoryHistory } from "../../schema/tables";
import type { DomainContext } from "../context";
import { assertLive } from "./list";

/** The change log of one memory, oldest first. */
export async function memoryHistoryOf(ctx: DomainContext, id: string) {
  await assertLive(ctx, id);
  const rows = await ctx.db
    .select()
    .from(memoryHistory)
    .where(and(eq(memoryHistory.memoryId, id), eq(memoryHistory.userId, ctx.userId)))
    .orderBy(asc(memoryHistory.createdAt), asc(memoryHistory.id));
  return rows.map((r) => ({
    id: r.id,
    memory_id: r.memoryId,
    changes: r.changes,
    created_at: r.createdAt.toISOString(),
    created_by: r.createdBy,
  }));
}
