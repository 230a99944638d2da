import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import { writtenBy } from "../changes/writer";
import type { DomainContext } from "../context";
import type { Db, Tx } from "../db/client";
import { liveMemory } from "./rows";
import { refusedWrite } from "./write-refusal";

/**
 * Soft-deletes the memories `which` picks among the scope's live, mutable ones, when `allowed`
 * holds for them too (who may write them, or that none is pinned); returns the ids deleted.
 */
export function softDeleteLive(
  db: Db | Tx,
  ctx: DomainContext,
  which: SQL,
  allowed: SQL,
): Promise<Array<{ id: string }>> {
  return db
    .update(memories)
    .set({ deletedAt: sql`now()` })
    .where(and(which, liveMemory(ctx), eq(memories.immutable, false), allowed))
    .returning({ id: memories.id });
}

/**
 * Soft-deletes one memory: 404 when it is not a live memory of the scope, 409 when immutable,
 * 403 when a grantee's grant on its namespace is read-only (write-refusal.ts).
 */
export async function deleteMemory(ctx: DomainContext, id: string): Promise<void> {
  const [row] = await softDeleteLive(ctx.db, ctx, eq(memories.id, id), writtenBy(ctx.wallet));
  if (row) return;
  throw await refusedWrite(ctx, id);
}

export interface BulkDeleteOutcome {
  id: string;
  deleted: boolean;
  error: string | null;
}

/** Soft-deletes many memories in one statement; each id reports its own outcome. */
export async function deleteMany(ctx: DomainContext, ids: string[]): Promise<BulkDeleteOutcome[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const deleted = await softDeleteLive(
    ctx.db,
    ctx,
    inArray(memories.id, unique),
    writtenBy(ctx.wallet),
  );
  const done = new Set(deleted.map((r) => r.id));
  const missing = unique.filter((id) => !done.has(id));
  const locked = new Set<string>();
  if (missing.length > 0) {
    const rows = await ctx.db
      .select({ id: memories.id })
      .from(memories)
      .where(and(inArray(memories.id, missing), liveMemory(ctx)));
    for (const r of rows) locked.add(r.id);
  }
  return unique.map((id) => ({
    id,
    deleted: done.has(id),
    error: done.has(id) ? null : locked.has(id) ? "immutable" : "not found",
  }));
}
