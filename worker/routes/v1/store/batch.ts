import { z } from "@hono/zod-openapi";
import { LIMITS } from "../../../memories/fields";
import { storeMemories } from "../../../memories/store";
import { storeInput } from "../../../memories/store-input";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { Memory, Uuid } from "../../schemas/memory";

const batchInput = z.object({
  memories: z
    .array(storeInput)
    .min(1, "at least 1 memory")
    .max(LIMITS.batch, `at most ${LIMITS.batch} memories`),
});

export const storeBatchOp = operation(
  {
    method: "post",
    path: "/v1/store/batch",
    operationId: "storeMemories",
    shared: "write",
    tags: ["memories"],
    summary: "Store up to 100 memories at once, all or nothing",
    auth: "wallet",
    price: "batch_store",
    request: { body: { content: { "application/json": { schema: batchInput } } } },
    responses: {
      201: json(
        z.object({
          ids: z.array(Uuid),
          stored: z.literal(true),
          count: z.number().int(),
          deduplicated_count: z.number().int(),
          tokens_used: z.number().int(),
          memories: z.array(Memory),
          failed: z.array(z.unknown()).max(0),
        }),
        "One id per item, in item order",
      ),
    },
  },
  async (c) => {
    const { items, tokensUsed, memories } = await storeMemories(
      domain(c),
      c.req.valid("json").memories,
      { withMemories: true },
    );
    return c.json(
      {
        ids: items.map((i) => i.id),
        stored: true,
        count: items.length,
        deduplicated_count: items.filter((i) => i.deduplicated).length,
        tokens_used: tokensUsed,
        // Client extras (the MCP server reads both): each item's memory, in item order, and
        // the items that failed, always none: the batch is stored all or nothing.
        memories,
        failed: [],
      },
      201,
    );
  },
);
