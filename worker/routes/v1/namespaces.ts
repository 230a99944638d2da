import { z } from "@hono/zod-openapi";
import { scope } from "../../memories/fields";
import { listNamespaces } from "../../memories/stats";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";
import { Timestamp } from "../schemas/memory";

export const namespacesOp = operation(
  {
    method: "get",
    path: "/v1/namespaces",
    operationId: "listNamespaces",
    tags: ["overview"],
    summary: "The wallet's namespaces, with counts",
    auth: "wallet",
    request: { query: z.object({ agent_id: scope.optional() }) },
    responses: {
      200: json(
        z.object({
          namespaces: z.array(
            z.object({ name: z.string(), count: z.number().int(), last_memory_at: Timestamp }),
          ),
          total: z.number().int(),
        }),
        "Namespaces in name order",
      ),
    },
  },
  async (c) => c.json(await listNamespaces(domain(c), c.req.valid("query").agent_id), 200),
);
