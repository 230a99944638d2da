import { z } from "@hono/zod-openapi";
import { countMemories, memoryFilters } from "../../../memories/list";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";

export const countMemoriesOp = operation(
  {
    method: "get",
    path: "/v1/memories/count",
    operationId: "countMemories",
    shared: "read",
    tags: ["memories"],
    summary: "How many memories match the list filters",
    auth: "wallet",
    request: { query: memoryFilters },
    responses: { 200: json(z.object({ count: z.number().int() }), "The count") },
  },
  async (c) => c.json({ count: await countMemories(domain(c), c.req.valid("query")) }, 200),
);
