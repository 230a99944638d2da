/**
 * Why a write of one memory (PATCH, DELETE) found nothing to write, asked only once it has
 * failed, so a write that succeeds costs no extra statement: 409 when the memory is
 * immutable, 403 when the caller reads it through a grant that does not let it write there,
 * else the 404 a missing, deleted or foreign memory gets (sharing/scope.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { ApiError, immutableConflict, notFound } from "../errors";
import { asReader, grantedNamespace, writeRefusal } from "../sharing/scope";
import { liveMemory } from "./rows";

export async function refusedWrite(
  ctx: DomainContext,
  id: string,
  /** The namespace a PATCH moves the memory to, which the grant must let it write too. */
  target?: string,
): Promise<ApiError> {
  const [row] = await ctx.db
    .select({
      namespace: memories.namespace,
      immutable: memories.immutable,
      writable: sql<boolean>`${grantedNamespace(ctx)}`,
      targetWritable: sql<boolean>`${target === undefined ? sql`true` : grantedNamespace(ctx, sql`${target}::text`)}`,
    })
    .from(memories)
    .where(and(eq(memories.id, id), liveMemory(asReader(ctx))));
  if (!row) return notFound();
  if (!row.writable) return writeRefusal("read", row.namespace);
  if (!row.targetWritable && target !== undefined) {
    return new ApiError("FORBIDDEN", `Your grant does not let you write to namespace "${target}"`);
  }
  return row.immutable ? immutableConflict() : notFound();
}
