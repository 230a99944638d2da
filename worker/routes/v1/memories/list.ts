import { z } from "@hono/zod-openapi";
import { listMemories, listQuery } from "../../../memories/list";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { Memory, memoryPage } from "../../schemas/memory";

export const listMemoriesOp = operation(
  {
    method: "get",
    path: "/v1/memories",
    operationId: "listMemories",
    shared: "read",
    tags: ["memories"],
    summary: "A page of memories, newest first, with filters",
    description:
      "`limit` above 100 is clamped to 100 (the response reports the limit applied). `tags` is comma-separated and matches any.",
    auth: "wallet",
    request: { query: listQuery },
    responses: {
      200: json(
        memoryPage(Memory, { limit: z.number().int(), offset: z.number().int() }),
        "The page and the total of all matches",
      ),
    },
  },
  async (c) => c.json(await listMemories(domain(c), c.req.valid("query")), 200),
);
