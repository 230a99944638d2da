/** A memory to store, as POST /v1/store, the batch and the import take it, with its defaults. */
import { z } from "zod";
import * as f from "./fields";

export const storeInput = z
  .object({
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
  })
  .transform((input, ctx) => {
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
    };
  });

export type NewMemory = z.output<typeof storeInput>;
