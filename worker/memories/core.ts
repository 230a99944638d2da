/**
 * Core memories are the pinned ones. Pinning through these endpoints is allowed on an
 * immutable memory too: immutability locks the record's content, and pinning only changes
 * how it ranks (PATCH, which the spec forbids on immutable memories, answers 409).
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import { writtenBy } from "../changes/writer";
import type { DomainContext } from "../context";
import { notFound } from "../errors";
import * as f from "./fields";
import { clientMemoryFields, liveMemory, shortMemory } from "./rows";
import { replacementSelect } from "./updates/current";

export const coreQuery = z.object({
  namespace: f.scope.optional(),
  agent_id: f.scope.optional(),
  limit: f.queryLimit(100, 20),
  offset: f.queryInt(0, 1_000_000_000, 0),
});

export async function listCore(ctx: DomainContext, q: z.output<typeof coreQuery>) {
  const where = and(
    liveMemory(ctx),
    eq(memories.pinned, true),
    q.namespace === undefined ? undefined : eq(memories.namespace, q.namespace),
    q.agent_id === undefined ? undefined : eq(memories.agentId, q.agent_id),
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        id: memories.id,
        content: memories.content,
        importance: memories.importance,
        memory_type: memories.memoryType,
        tags: memories.tags,
        namespace: memories.namespace,
        created_at: memories.createdAt,
        ...clientMemoryFields,
        ...replacementSelect(memories.id, ctx),
      })
      .from(memories)
      .where(where)
      .orderBy(desc(memories.importance), desc(memories.createdAt))
      .limit(q.limit)
      .offset(q.offset),
    ctx.db.select({ n: count() }).from(memories).where(where),
  ]);
  return {
    memories: rows.map(shortMemory),
    total: total?.n ?? 0,
  };
}

export async function setPinned(ctx: DomainContext, id: string, pinned: boolean): Promise<void> {
  const [row] = await ctx.db
    .update(memories)
    .set({ pinned, updatedAt: sql`now()` })
    .where(
      and(
        eq(memories.id, id),
        liveMemory(ctx),
        // Unpinning needs a pinned memory (spec: 404 when not pinned).
        pinned ? undefined : eq(memories.pinned, true),
        writtenBy(ctx.wallet),
      ),
    )
    .returning({ id: memories.id });
  if (!row) throw notFound(pinned ? "Memory" : "Pinned memory");
}
