import { z } from "@hono/zod-openapi";
import { scope } from "../../memories/fields";
import { tagCounts } from "../../memories/list";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";

export const tagsOp = operation(
  {
    method: "get",
    path: "/v1/tags",
    operationId: "listTags",
    tags: ["overview"],
    summary: "Every tag in use, with how many memories carry it",
    auth: "wallet",
    request: { query: z.object({ namespace: scope.optional() }) },
    responses: {
      200: json(
        z.object({ tags: z.array(z.object({ tag: z.string(), count: z.number().int() })) }),
        "Tags, most used first",
      ),
    },
  },
  async (c) => c.json({ tags: await tagCounts(domain(c), c.req.valid("query").namespace) }, 200),
);
