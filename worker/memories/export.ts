import { and, asc } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { type ExportedMemory, toCsv, toMarkdown } from "./export-format";
import * as f from "./fields";
import { filterConditions, memoryFilters } from "./list";
import { type MemoryRecord, memoryColumns, toMemory } from "./rows";

/** Upper bound per export response; page through larger stores with `offset`. */
export const EXPORT_MAX = 10_000;

export const exportQuery = memoryFilters.extend({
  format: z.enum(["json", "csv", "markdown"]).optional(),
  include_deleted: f.queryBool.optional(),
  limit: f.queryInt(1, EXPORT_MAX, EXPORT_MAX),
  offset: f.queryInt(0, 1_000_000_000, 0),
});

export async function exportMemories(ctx: DomainContext, q: z.output<typeof exportQuery>) {
  const format = q.format ?? "json";
  const rows = await ctx.db
    .select({ ...memoryColumns, deletedAt: memories.deletedAt })
    .from(memories)
    .where(and(...filterConditions(ctx, q, q.include_deleted ? "unexpired" : "live")))
    .orderBy(asc(memories.createdAt), asc(memories.id))
    .limit(q.limit)
    .offset(q.offset);
  const exported: ExportedMemory[] = rows.map((r) => ({
    ...toMemory(r as MemoryRecord),
    ...(q.include_deleted ? { deleted_at: r.deletedAt ? r.deletedAt.toISOString() : null } : {}),
  }));
  const body =
    format === "csv" ? toCsv(exported) : format === "markdown" ? toMarkdown(exported) : exported;
  return { format, memories: body, count: exported.length };
}
