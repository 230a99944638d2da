import { z } from "@hono/zod-openapi";
import { afterResponse } from "../../lib/after-response";
import { domain } from "../../middleware/app-env";
import { recordAccess } from "../../recall/access";
import { buildContext, contextInput } from "../../recall/context";
import { json, operation } from "../operation";
import { MemoryTypeName, Metadata, Timestamp, Uuid } from "../schemas/memory";

const StructuredItem = z.object({
  content: z.string(),
  importance: z.number(),
  memory_type: MemoryTypeName,
  tags: z.array(z.string()),
  source: z.string(),
  metadata: Metadata.optional(),
});

export const contextOp = operation(
  {
    method: "post",
    path: "/v1/context",
    operationId: "buildContext",
    shared: "read",
    tags: ["recall"],
    summary: "A ready context block for a prompt, within max_tokens",
    auth: "wallet",
    price: "language_model",
    request: { body: { content: { "application/json": { schema: contextInput } } } },
    responses: {
      200: json(
        z.object({
          context: z.union([z.string(), z.object({ memories: z.array(StructuredItem) })]),
          memories_used: z.number().int(),
          tokens: z.number().int(),
          memories: z.array(
            z.object({
              id: Uuid,
              content: z.string(),
              importance: z.number(),
              memory_type: MemoryTypeName,
              namespace: z.string(),
              tags: z.array(z.string()),
              pinned: z.boolean(),
              created_at: Timestamp,
            }),
          ),
        }),
        "`context` is a string for format text, an object for structured",
      ),
    },
  },
  async (c) => {
    const ctx = domain(c);
    const { result, accessed } = await buildContext(ctx, c.req.valid("json"));
    await afterResponse(c, recordAccess(ctx, accessed), "recording context access");
    return c.json(result, 200);
  },
);
