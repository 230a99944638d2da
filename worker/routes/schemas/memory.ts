/**
 * Response shapes shared by several operations: the memory object in its full and short
 * forms. Field names and nullability follow rows.ts toMemory, which every read goes through.
 */
import { z } from "@hono/zod-openapi";
import { MEMORY_TYPES } from "../../../schema/kinds";

export const Uuid = z
  .string()
  .openapi({ format: "uuid", example: "2f1c7a56-2c5e-4b38-9b7e-3c1b9f6d2a10" });
export const Timestamp = z.string().openapi({ format: "date-time" });
export const MemoryTypeName = z.enum(MEMORY_TYPES);
export const Metadata = z.record(z.string(), z.unknown());

/** Provenance (docs/sharing.md): the owner's wallet, or the grantee's that wrote it. */
export const CreatedBy = z.string().openapi({
  description: "The wallet that wrote it: the owner, or a wallet writing through a grant",
  example: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
});

/** Knowledge updates (docs/knowledge-updates.md): when, and what replaces what. */
export const Replacement = {
  occurred_at: Timestamp.openapi({
    description:
      "When the fact was said or became true (the store's `occurred_at`, else when it was stored). Recency and the order of replacements use it",
  }),
  supersedes: z.array(Uuid).openapi({
    description: "Ids of the memories this one replaces (its `supersedes` relations)",
  }),
  superseded_by: Uuid.nullable().openapi({
    description:
      "The live memory that replaces this one, or null when it is current. A replaced memory is history: reads answer with current memories unless `include_superseded`",
  }),
};

/** The full memory object (GET /v1/memories/:id, list, PATCH, store's `memory`). */
export const Memory = z
  .object({
    id: Uuid,
    // Optional: left out of the answers a grantee gets through `?owner=` (sharing/answer.ts),
    // which show nothing of the owner's internal id; always present in the owner's own.
    user_id: Uuid.optional().openapi({
      description:
        "The owning user's internal id. Always present in your own answers; left out of answers through a grant (`owner` of another wallet), which show nothing of the owner's internal id",
    }),
    namespace: z.string(),
    content: z.string(),
    embedding_model: z.string().nullable(),
    metadata: Metadata,
    tags: z.array(z.string()),
    importance: z.number(),
    memory_type: MemoryTypeName,
    session_id: z.string().nullable(),
    agent_id: z.string().nullable(),
    pinned: z.boolean(),
    immutable: z.boolean(),
    expires_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    accessed_at: Timestamp,
    access_count: z.number().int(),
    created_by: CreatedBy,
    ...Replacement,
  })
  .openapi("Memory");

/**
 * The short objects of core list and search: the spec's fields plus the ones the public
 * SDKs read when they parse them as memories (rows.ts clientMemoryFields, shortMemory).
 * `session_id`, `agent_id` and `expires_at` are present only when set.
 */
export const ShortMemory = Memory.pick({
  id: true,
  content: true,
  importance: true,
  memory_type: true,
  namespace: true,
  tags: true,
  created_at: true,
  user_id: true,
  embedding_model: true,
  updated_at: true,
  accessed_at: true,
  access_count: true,
  metadata: true,
  pinned: true,
  immutable: true,
  created_by: true,
  occurred_at: true,
  supersedes: true,
  superseded_by: true,
}).extend({
  session_id: z.string().optional().openapi({ description: "Only when set" }),
  agent_id: z.string().optional().openapi({ description: "Only when set" }),
  expires_at: Timestamp.optional().openapi({ description: "Only when set" }),
});

/** A page of memories and the total of all that match (list, core, search), then `extra`. */
export const memoryPage = <T extends z.ZodType, E extends z.ZodRawShape>(item: T, extra: E) =>
  z.object({ memories: z.array(item), total: z.number().int(), ...extra });
