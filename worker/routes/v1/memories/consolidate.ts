import { z } from "@hono/zod-openapi";
import { consolidate } from "../../../consolidate/consolidate";
import { json } from "../../operation";
import { Uuid } from "../../schemas/memory";
import { queueableOperation } from "../jobs/accept";

const ConsolidateResult = z.object({
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
});

export const consolidateOp = queueableOperation(
  {
    path: "/v1/memories/consolidate",
    operationId: "consolidateMemories",
    tags: ["language model"],
    summary: "Merge clusters of similar memories (rule or llm mode; dry_run lists them only)",
    price: "language_model",
    bucket: "llm",
  },
  "consolidate",
  consolidate,
  { status: 200, body: json(ConsolidateResult, "The clusters and what was merged") },
);
