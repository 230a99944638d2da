/**
 * Why a write of one memory (PATCH, DELETE) is refused: 409 when the memory is immutable, 403
 * when the caller reads it through a grant that does not let it write there (or move it where
 * it points), else the 404 a missing, deleted or foreign memory gets (sharing/scope.ts).
 *
 * Asked once a write has found nothing to write, so a write that succeeds costs no extra
 * statement; and, through a grant, before a PATCH embeds new content, so that no embedding is
 * made for a write the grant does not allow (the refused call's free call is given back, and
 * the work would be free).
 */
import { and, eq, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { ApiError, immutableConflict, notFound } from "../errors";
import { asReader, grantedNamespace, writeRefusal } from "../sharing/scope";
import { liveMemory } from "./rows";

/** The refusal of writing memory `id` (moved to `target`), or undefined when it may be written. */
export async function writeRefusalOf(
  ctx: DomainContext,
  id: string,
  /** The namespace a PATCH moves the memory to, which the grant must let it write too. */
  target?: string,
): Promise<ApiError | undefined> {
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
  return row.immutable ? immutableConflict() : undefined;
}

/** The refusal of a write that found nothing to write (gone meanwhile: 404). */
export async function refusedWrite(
  ctx: DomainContext,
  id: string,
  target?: string,
): Promise<ApiError> {
  return (await writeRefusalOf(ctx, id, target)) ?? notFound();
}
