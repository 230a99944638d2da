import { z } from "@hono/zod-openapi";
import { consolidate } from "../../../consolidate/consolidate";
import { json } from "../../operation";
import { Uuid } from "../../schemas/memory";
import { queueableOperation } from "../jobs/accept";

const ConsolidateResult = z.object({
  clusters_found: z.number().int(),
  memories_merged: z.number().int(),
  memories_created: z.number().int(),
  merged_count: z.number().int().openapi({ description: "= memories_merged (the CLI's name)" }),
  merged: z
    .number()
    .int()
    .openapi({ description: "= memories_merged (the TypeScript SDK's name)" }),
  dry_run: z.boolean().openapi({ description: "Whether this was a dry run" }),
  tokens_used: z
    .number()
    .int()
    .openapi({ description: "Language-model and embedding tokens (llm mode; 0 in rule mode)" }),
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
