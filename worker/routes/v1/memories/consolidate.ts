import { z } from "@hono/zod-openapi";
import { consolidate, consolidateInput } from "../../../consolidate/consolidate";
import { acceptingAsync } from "../../../jobs/submit";
import { json, operation } from "../../operation";
import { ACCEPTED } from "../../schemas/job";
import { Uuid } from "../../schemas/memory";
import { runOrQueue } from "../jobs/accept";

export const consolidateOp = operation(
  {
    method: "post",
    path: "/v1/memories/consolidate",
    operationId: "consolidateMemories",
    tags: ["language model"],
    summary: "Merge clusters of similar memories (rule or llm mode; dry_run lists them only)",
    auth: "wallet",
    price: "language_model",
    bucket: "llm",
    request: {
      body: { content: { "application/json": { schema: acceptingAsync(consolidateInput) } } },
    },
    responses: {
      200: json(
        z.object({
          clusters_found: z.number().int(),
          memories_merged: z.number().int(),
          memories_created: z.number().int(),
          merged_count: z.number().int(),
          clusters: z.array(
            z.object({
              memory_ids: z.array(Uuid),
              similarity: z.number(),
              merged_into: Uuid.optional(),
            }),
          ),
        }),
        "The clusters and what was merged",
      ),
      202: ACCEPTED,
    },
  },
  (c) => runOrQueue(c, "consolidate", c.req.valid("json"), consolidate, 200),
);
