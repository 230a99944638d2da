import { z } from "@hono/zod-openapi";
import { storeMemories } from "../../memories/store";
import { storeInput } from "../../memories/store-input";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";
import { Memory, Uuid } from "../schemas/memory";

export const storeOp = operation(
  {
    method: "post",
    path: "/v1/store",
    operationId: "storeMemory",
    shared: "write",
    tags: ["memories"],
    summary: "Store one memory (merged into an existing one at cosine ≥ 0.95 when no fact is lost)",
    auth: "wallet",
    price: "embed",
    request: { body: { content: { "application/json": { schema: storeInput } } } },
    responses: {
      201: json(
        z.object({
          id: Uuid,
          stored: z.literal(true),
          deduplicated: z.boolean(),
          tokens_used: z.number().int(),
          memory: Memory,
        }),
        "Stored, or merged into the memory `id`",
      ),
    },
  },
  async (c) => {
    const { items, tokensUsed, memories } = await storeMemories(domain(c), [c.req.valid("json")], {
      withMemories: true,
    });
    const [item] = items;
    return c.json(
      {
        id: item?.id,
        stored: true,
        deduplicated: item?.deduplicated ?? false,
        tokens_used: tokensUsed,
        // Client extra (the MCP server shows `memory`): the memory as stored or merged.
        memory: memories[0],
      },
      201,
    );
  },
);
