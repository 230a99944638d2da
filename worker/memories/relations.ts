/** Typed relations between two of the caller's memories, and the graph they form. */
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { memories, relations } from "../../schema/tables";
import { writtenBy } from "../changes/writer";
import type { DomainContext } from "../context";
import { ApiError, notFound } from "../errors";
import { grantedNamespace } from "../sharing/scope";
import * as f from "./fields";
import { type Edge, walkGraph } from "./graph-walk";
import { assertLive } from "./list";
import { isLive, liveMemory, roundImportance } from "./rows";

export const createRelationInput = z.object({
  target_id: f.uuid,
  relation_type: z.enum(f.RELATION_TYPES),
  metadata: f.metadata.optional(),
});

export async function createRelation(
  ctx: DomainContext,
  sourceId: string,
  input: z.output<typeof createRelationInput>,
) {
  if (sourceId.toLowerCase() === input.target_id.toLowerCase()) {
    throw new ApiError("VALIDATION_ERROR", "A memory cannot be related to itself", {
      issues: [{ path: "target_id", message: "must differ from the source memory" }],
    });
  }
  // One statement: both ends checked and the relation inserted only if both are the caller's
  // live memories (ON CONFLICT: an existing edge comes back as no row).
  const insert = ctx.db
    .insert(relations)
    .select(
      sql`SELECT gen_random_uuid(), ${ctx.userId}::uuid, ${sourceId}::uuid, ${input.target_id}::uuid,
        ${input.relation_type}::text, ${JSON.stringify(input.metadata ?? {})}::jsonb, now()
      WHERE (SELECT count(*) FROM ends) = 2`,
    )
    .onConflictDoNothing()
    .returning();
  const result = await ctx.db.execute<Record<string, unknown>>(sql`
    WITH ends AS (
      SELECT ${memories.id} AS id FROM ${memories}
      WHERE ${memories.id} IN (${sourceId}, ${input.target_id}) AND ${liveMemory(ctx)}
        AND ${writtenBy(ctx.wallet)}
    ),
    ins AS (${insert.getSQL()})
    SELECT ARRAY(SELECT id FROM ends) AS found, ins.* FROM (SELECT 1) one LEFT JOIN ins ON true`);
  const row = result.rows[0] ?? {};
  const found = new Set((row.found as string[] | undefined) ?? []);
  if (!found.has(sourceId)) throw notFound("Source memory");
  if (!found.has(input.target_id)) throw notFound("Target memory");
  if (!row.id) throw new ApiError("CONFLICT", "This relation already exists");
  return toRelation({
    id: row.id as string,
    userId: row.user_id as string,
    sourceId: row.source_id as string,
    targetId: row.target_id as string,
    relationType: row.relation_type as string,
    metadata: row.metadata as Record<string, unknown>,
    createdAt: new Date(row.created_at as string),
  });
}

function toRelation(r: typeof relations.$inferSelect) {
  return {
    id: r.id,
    source_id: r.sourceId,
    target_id: r.targetId,
    relation_type: r.relationType,
    metadata: r.metadata,
    created_at: r.createdAt.toISOString(),
  };
}

export const listRelationsQuery = z.object({
  direction: z.enum(["outgoing", "incoming", "both"]).optional(),
  relation_type: z.enum(f.RELATION_TYPES).optional(),
});

/**
 * Relations of a memory, each with a summary of its other end: every relation whose other
 * end is live, and its outgoing `supersedes` relations whose other end is soft-deleted (the
 * memories a consolidation merged into it, or any it was said to supersede and that were
 * deleted since), marked `deleted: true` with `deleted_at`, so what was merged stays
 * visible. A relation to any other deleted or expired memory is left out, as in graphs.
 */
export async function listRelations(
  ctx: DomainContext,
  id: string,
  q: z.output<typeof listRelationsQuery>,
) {
  await assertLive(ctx, id);
  const other = alias(memories, "other");
  const direction = q.direction ?? "both";
  const rows = await ctx.db
    .select({
      relation: relations,
      other: {
        id: other.id,
        content: other.content,
        importance: other.importance,
        memory_type: other.memoryType,
        namespace: other.namespace,
        deleted_at: other.deletedAt,
      },
    })
    .from(relations)
    .innerJoin(
      other,
      sql`${other.id} = CASE WHEN ${relations.sourceId} = ${id} THEN ${relations.targetId} ELSE ${relations.sourceId} END`,
    )
    .where(
      and(
        eq(relations.userId, ctx.userId),
        direction === "outgoing"
          ? eq(relations.sourceId, id)
          : direction === "incoming"
            ? eq(relations.targetId, id)
            : or(eq(relations.sourceId, id), eq(relations.targetId, id)),
        q.relation_type ? eq(relations.relationType, q.relation_type) : undefined,
        or(
          isLive(other),
          and(
            eq(relations.sourceId, id),
            eq(relations.relationType, "supersedes"),
            isNotNull(other.deletedAt),
          ),
        ),
      ),
    )
    .orderBy(relations.createdAt);
  return rows.map(({ relation, other: { deleted_at: deletedAt, ...o } }) => ({
    ...toRelation(relation),
    direction: relation.sourceId === id ? ("outgoing" as const) : ("incoming" as const),
    memory: {
      ...o,
      importance: roundImportance(o.importance),
      deleted: deletedAt !== null,
      deleted_at: deletedAt ? deletedAt.toISOString() : null,
    },
  }));
}

export async function deleteRelation(ctx: DomainContext, memoryId: string, relationId: string) {
  await assertLive(ctx, memoryId);
  const [row] = await ctx.db
    .delete(relations)
    .where(
      and(
        eq(relations.id, relationId),
        eq(relations.userId, ctx.userId),
        or(eq(relations.sourceId, memoryId), eq(relations.targetId, memoryId)),
        writtenBy(ctx.wallet),
      ),
    )
    .returning({ id: relations.id });
  if (!row) throw notFound("Relation");
}

export const graphQuery = z.object({
  depth: f.queryInt(1, 5, 2),
  limit: f.queryInt(1, 200, 50),
  relation_types: f.csv.pipe(z.array(z.enum(f.RELATION_TYPES))).optional(),
});

export async function memoryGraph(
  ctx: DomainContext,
  rootId: string,
  q: z.output<typeof graphQuery>,
) {
  const [root] = await ctx.db
    .select({ id: memories.id, content: memories.content, importance: memories.importance })
    .from(memories)
    .where(and(eq(memories.id, rootId), liveMemory(ctx)));
  if (!root) throw notFound();

  const edgesOf = async (frontier: string[]): Promise<Edge[]> =>
    (await liveRelationsOf(ctx, frontier, q.relation_types)).map(({ id: _id, ...edge }) => edge);

  const walk = await walkGraph(rootId, edgesOf, { maxDepth: q.depth, maxNodes: q.limit });
  const nodes =
    walk.nodeIds.length === 0
      ? []
      : await ctx.db
          .select({ id: memories.id, content: memories.content, importance: memories.importance })
          .from(memories)
          .where(inArray(memories.id, walk.nodeIds));
  const byId = new Map(
    nodes.map((n) => [n.id, { ...n, importance: roundImportance(n.importance) }]),
  );
  return {
    root: { ...root, importance: roundImportance(root.importance) },
    nodes: walk.nodeIds.flatMap((id) => byId.get(id) ?? []),
    edges: walk.edges,
    depth: walk.depth,
  };
}

/**
 * The caller's relations that touch any of `ids` and whose two ends are both live, oldest
 * first, optionally of some types only (graph walk, recall's include_relations). A grantee
 * sees a relation only when both ends are in namespaces it may read: answered as a column and
 * applied here, so the statement's plan is the owner's own (a WHERE condition on the ends'
 * namespaces could send Postgres in by namespace, across every wallet's memories).
 */
export async function liveRelationsOf(ctx: DomainContext, ids: string[], types?: string[]) {
  const src = alias(memories, "src");
  const dst = alias(memories, "dst");
  const rows = await ctx.db
    .select({
      id: relations.id,
      source_id: relations.sourceId,
      target_id: relations.targetId,
      relation_type: relations.relationType,
      readable: sql<boolean>`${grantedNamespace(ctx, src.namespace)} AND ${grantedNamespace(ctx, dst.namespace)}`,
    })
    .from(relations)
    .innerJoin(src, eq(src.id, relations.sourceId))
    .innerJoin(dst, eq(dst.id, relations.targetId))
    .where(
      and(
        eq(relations.userId, ctx.userId),
        or(inArray(relations.sourceId, ids), inArray(relations.targetId, ids)),
        types && types.length > 0 ? inArray(relations.relationType, types) : undefined,
        isLive(src),
        isLive(dst),
      ),
    )
    .orderBy(relations.createdAt, relations.id);
  return rows.filter((r) => r.readable).map(({ readable: _r, ...relation }) => relation);
}
