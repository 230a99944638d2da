import { z } from "@hono/zod-openapi";
import { RELATION_TYPES } from "../../../schema/kinds";
import { MemoryTypeName, Metadata, Timestamp, Uuid } from "./memory";

export const RelationTypeName = z.enum(RELATION_TYPES);

export const Relation = z
  .object({
    id: Uuid,
    source_id: Uuid,
    target_id: Uuid,
    relation_type: RelationTypeName,
    metadata: Metadata,
    created_at: Timestamp,
  })
  .openapi("Relation");

/** A relation as listed for one memory: its direction, and the memory at the other end. */
export const ListedRelation = Relation.extend({
  direction: z.enum(["outgoing", "incoming"]),
  memory: z.object({
    id: Uuid,
    content: z.string(),
    importance: z.number(),
    memory_type: MemoryTypeName,
    namespace: z.string(),
    deleted: z.boolean(),
    deleted_at: Timestamp.nullable(),
  }),
});
