import { z } from "@hono/zod-openapi";
import { scope } from "../../memories/fields";
import { memoryStats } from "../../memories/stats";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";
import { MemoryTypeName, Timestamp } from "../schemas/memory";

export const statsOp = operation(
  {
    method: "get",
    path: "/v1/stats",
    operationId: "memoryStats",
    tags: ["overview"],
    summary: "Usage statistics of the wallet's memories",
    auth: "wallet",
    request: { query: z.object({ namespace: scope.optional() }) },
    responses: {
      200: json(
        z.object({
          total_memories: z.number().int(),
          avg_importance: z.number(),
          pinned_count: z.number().int(),
          never_accessed: z.number().int(),
          total_accesses: z.number().int(),
          oldest_memory: Timestamp.nullable(),
          newest_memory: Timestamp.nullable(),
          by_type: z.array(z.object({ memory_type: MemoryTypeName, count: z.number().int() })),
          by_namespace: z.array(z.object({ namespace: z.string(), count: z.number().int() })),
          total_relations: z.number().int(),
        }),
        "Counts",
      ),
    },
  },
  async (c) => c.json(await memoryStats(domain(c), c.req.valid("query").namespace), 200),
);
