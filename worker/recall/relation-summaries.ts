/** The relations recall lists with each memory (include_relations). */
import { and, eq, inArray, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { memories, relations } from "../../schema/tables";
import type { DomainContext } from "../context";
import { isLive } from "../memories/rows";

export interface RelationSummary {
  id: string;
  source_id: string;
  target_id: string;
  relation_type: string;
  direction: "outgoing" | "incoming";
}

/** Relations of each memory whose other end is live, keyed by memory id. */
export async function relationsOf(
  ctx: DomainContext,
  ids: string[],
): Promise<Map<string, RelationSummary[]>> {
  const out = new Map<string, RelationSummary[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const src = alias(memories, "src");
  const dst = alias(memories, "dst");
  const rows = await ctx.db
    .select({
      id: relations.id,
      source_id: relations.sourceId,
      target_id: relations.targetId,
      relation_type: relations.relationType,
    })
    .from(relations)
    .innerJoin(src, eq(src.id, relations.sourceId))
    .innerJoin(dst, eq(dst.id, relations.targetId))
    .where(
      and(
        eq(relations.userId, ctx.userId),
        or(inArray(relations.sourceId, ids), inArray(relations.targetId, ids)),
        isLive(src),
        isLive(dst),
      ),
    )
    .orderBy(relations.createdAt);
  for (const r of rows) {
    out.get(r.source_id)?.push({ ...r, direction: "outgoing" });
    if (r.target_id !== r.source_id) out.get(r.target_id)?.push({ ...r, direction: "incoming" });
  }
  return out;
}
