import { and, asc } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { type ExportedMemory, toCsv, toMarkdown } from "./export-format";
import * as f from "./fields";
import { filterConditions, memoryFilters } from "./list";
import { memoryColumns, toMemory } from "./rows";
import { replacementRecord, replacementSelect } from "./updates/current";

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
    .select({
      ...memoryColumns,
      deletedAt: memories.deletedAt,
      ...replacementSelect(memories.id, ctx),
    })
    .from(memories)
    // An export is the whole history: replaced memories too, unless asked otherwise, each
    // with its `supersedes`, so an import rebuilds the relations (routes/v1/import.ts).
    .where(
      and(
        ...filterConditions(
          ctx,
          { ...q, include_superseded: q.include_superseded ?? true },
          q.include_deleted ? "unexpired" : "live",
        ),
      ),
    )
    .orderBy(asc(memories.createdAt), asc(memories.id))
    .limit(q.limit)
    .offset(q.offset);
  const exported: ExportedMemory[] = rows.map(({ supersedes, superseded_by, ...r }) => ({
    ...toMemory({ ...r, ...replacementRecord({ supersedes, superseded_by }) }),
    ...(q.include_deleted ? { deleted_at: r.deletedAt ? r.deletedAt.toISOString() : null } : {}),
  }));
  const body =
    format === "csv" ? toCsv(exported) : format === "markdown" ? toMarkdown(exported) : exported;
  return { format, memories: body, count: exported.length };
}
