/** The request of POST /v1/recall, and the list filters it stands for. */
import { z } from "zod";
import * as f from "../memories/fields";
import type { MemoryFilters } from "../memories/list";

export const recallInput = z.object({
  query: f.nonBlankText(32_768),
  limit: z.number().int().min(1).max(100).optional(),
  min_similarity: z.number().min(0).max(1).optional(),
  namespace: f.scope.optional(),
  session_id: f.scope.optional(),
  agent_id: f.scope.optional(),
  include_relations: z.boolean().optional(),
  filters: z
    .object({
      tags: f.tags.optional(),
      after: f.isoDate.optional(),
      before: f.isoDate.optional(),
      memory_type: f.memoryType.optional(),
      pinned: z.boolean().optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  since: f.isoDate.optional(),
  until: f.isoDate.optional(),
  /** Replaced memories too, marked by `superseded_by` (docs/knowledge-updates.md). */
  include_superseded: z.boolean().optional(),
  /** What was current at this time: memories that had occurred by then, not yet replaced. */
  as_of: f.isoDate.optional(),
});
export type RecallInput = z.output<typeof recallInput>;

export function recallFilters(input: RecallInput): MemoryFilters {
  return {
    namespace: input.namespace,
    session_id: input.session_id,
    agent_id: input.agent_id,
    tags: input.filters?.tags,
    after: input.filters?.after ?? input.since,
    before: input.filters?.before ?? input.until,
    memory_type: input.filters?.memory_type,
    pinned: input.filters?.pinned,
    metadata: input.filters?.metadata,
    include_superseded: input.include_superseded,
    as_of: input.as_of,
  };
}
