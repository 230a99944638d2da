/**
 * Why a write of one memory (PATCH, DELETE) is refused: 409 when the memory is immutable, 403
 * when the caller reads it through a grant that does not let it write there (or move it where
 * it points), else the 404 a missing, deleted or foreign memory gets (sharing/scope.ts).
 *
 * Asked once a write has found nothing to write, so a write that succeeds costs no extra
 * statement; and before a PATCH or a batch update embeds new content (one statement for a
 * whole batch), so that no embedding is made for a write that would be refused: a refused
 * PATCH's charge is given back, and a batch's failed items are paid by nothing but the call,
 * so an embedding made first would be work done for free.
 */
import { and, eq, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { ApiError, immutableConflict, notFound } from "../errors";
import { asReader, grantedNamespace, permissionsOf, writeRefusal } from "../sharing/scope";
import { liveMemory } from "./rows";

/** A memory as a write's refusal sees it (found by its caller's reading scope). */
interface WriteState {
  namespace: string;
  immutable: boolean;
  /** The scope may write the memory's own namespace. */
  writable: boolean;
}

/** One write a batch asks about: the memory, and the namespace a PATCH moves it to. */
export interface WriteTarget {
  id: string;
  target?: string;
}

/** The refusal of a write of `state` (undefined: not found) moved to `target`. */
function refusalOf(
  state: WriteState | undefined,
  target: string | undefined,
  targetWritable: boolean,
): ApiError | undefined {
  if (!state) return notFound();
  if (!state.writable) return writeRefusal("read", state.namespace);
  if (!targetWritable && target !== undefined) {
    return new ApiError("FORBIDDEN", `Your grant does not let you write to namespace "${target}"`);
  }
  return state.immutable ? immutableConflict() : undefined;
}

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
  return refusalOf(row, target, row?.targetWritable ?? true);
}

/**
 * The refusals of `writes`, in their order (undefined where the write may go ahead), in one
 * statement whatever their number: the memories by id, and through a grant the caller's
 * permission on every namespace the writes move memories to.
 */
export async function writeRefusalsOf(
  ctx: DomainContext,
  writes: WriteTarget[],
): Promise<Array<ApiError | undefined>> {
  if (writes.length === 0) return [];
  const ids = [...new Set(writes.map((w) => w.id))];
  const targets = [...new Set(writes.flatMap((w) => (w.target === undefined ? [] : [w.target])))];
  const { grant } = ctx;
  const rows = await ctx.db
    .select({
      id: memories.id,
      namespace: memories.namespace,
      immutable: memories.immutable,
      writable: sql<boolean>`${grantedNamespace(ctx)}`,
      // {namespace: permission}; read once per statement (an InitPlan), not per row.
      permissions: sql<Record<string, string>>`${
        grant && targets.length > 0
          ? permissionsOf({ userId: ctx.userId, grant }, targets)
          : sql`'{}'::json`
      }`,
    })
    .from(memories)
    .where(and(sql`${memories.id} = ANY(${sql.param(ids)}::uuid[])`, liveMemory(asReader(ctx))));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return writes.map(({ id, target }) => {
    const row = byId.get(id);
    const targetWritable = !grant || target === undefined || row?.permissions[target] === "write";
    return refusalOf(row, target, targetWritable);
  });
}

/** The refusal of a write that found nothing to write (gone meanwhile: 404). */
export async function refusedWrite(
  ctx: DomainContext,
  id: string,
  target?: string,
): Promise<ApiError> {
  return (await writeRefusalOf(ctx, id, target)) ?? notFound();
}
