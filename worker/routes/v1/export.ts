import { z } from "@hono/zod-openapi";
import { exportMemories, exportQuery } from "../../memories/export";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";
import { Memory, Timestamp } from "../schemas/memory";

export const exportOp = operation(
  {
    method: "get",
    path: "/v1/export",
    operationId: "exportMemories",
    shared: "read",
    tags: ["import and export"],
    summary: "Export memories as JSON objects, or as CSV or Markdown text",
    auth: "wallet",
    request: { query: exportQuery },
    responses: {
      200: json(
        z.object({
          format: z.enum(["json", "csv", "markdown"]),
          memories: z.union([
            z.array(Memory.extend({ deleted_at: Timestamp.nullable().optional() })),
            z.string(),
          ]),
          count: z.number().int(),
        }),
        "`memories` is an array for json, the formatted text for csv and markdown",
      ),
    },
  },
  async (c) => c.json(await exportMemories(domain(c), c.req.valid("query")), 200),
);
