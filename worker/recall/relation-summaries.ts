/** The relations recall lists with each memory (include_relations), in both directions. */
import type { DomainContext } from "../context";
import { liveRelationsOf } from "../memories/relations";

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
  const rows = await liveRelationsOf(ctx, ids);
  for (const r of rows) {
    out.get(r.source_id)?.push({ ...r, direction: "outgoing" });
    if (r.target_id !== r.source_id) out.get(r.target_id)?.push({ ...r, direction: "incoming" });
  }
  return out;
}
