/** A memory to store, as POST /v1/store, the batch and the import take it, with its defaults. */
import { z } from "zod";
import * as f from "./fields";

const storeFields = z.object({
  content: f.content,
  metadata: f.metadata.optional(),
  tags: f.tags.optional(),
  importance: f.importance.optional(),
  namespace: f.namespace.optional(),
  memory_type: f.memoryType.optional(),
  session_id: f.scope.nullish(),
  agent_id: f.scope.nullish(),
  expires_at: f.futureDate.nullish(),
  pinned: z.boolean().optional(),
  immutable: z.boolean().optional(),
  // Knowledge updates (docs/knowledge-updates.md).
  occurred_at: f.pastDate.optional(),
  supersedes: f.supersedesIds.optional(),
  detect_updates: z.boolean().optional(),
});

type StoreFields = z.output<typeof storeFields>;

function toNewMemory(input: StoreFields, ctx: z.RefinementCtx) {
  const { tags: metaTags, ...metadata } = input.metadata ?? {};
  const tags = f.mergeTags(input.tags, metaTags as string[] | undefined);
  if (tags.length > f.LIMITS.tags) {
    ctx.addIssue({ code: "custom", path: ["tags"], message: `at most ${f.LIMITS.tags} tags` });
    return z.NEVER;
  }
  return {
    content: input.content,
    metadata,
    tags,
    importance: input.importance ?? 0.5,
    namespace: input.namespace ?? "default",
    memoryType: input.memory_type ?? "general",
    sessionId: input.session_id ?? null,
    agentId: input.agent_id ?? null,
    expiresAt: input.expires_at ?? null,
    pinned: input.pinned ?? false,
    immutable: input.immutable ?? false,
    /** Null: the time of storing. */
    occurredAt: input.occurred_at ?? null,
    /** Ids of memories it replaces, the caller's or (import) other items' `id`. */
    supersedes: input.supersedes ?? [],
    detectUpdates: input.detect_updates ?? true,
    /** An import item's own id (an export's): what other items' `supersedes` may name. */
    ref: null as string | null,
  };
}

export const storeInput = storeFields.transform(toNewMemory);

/**
 * An import item: a stored memory's fields, and the `id` it had where it was exported, which
 * other items' `supersedes` name (the ids are new here; routes/v1/import.ts).
 */
export const importItem = storeFields.extend({ id: f.uuid.optional() }).transform((input, ctx) => {
  const memory = toNewMemory(input, ctx);
  return memory === z.NEVER ? z.NEVER : { ...memory, ref: input.id ?? null };
});

export type NewMemory = z.output<typeof storeInput>;
