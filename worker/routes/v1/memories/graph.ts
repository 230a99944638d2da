import { z } from "@hono/zod-openapi";
import { graphQuery, memoryGraph } from "../../../memories/relations";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { Uuid } from "../../schemas/memory";
import { IdParam } from "../../schemas/params";
import { RelationTypeName } from "../../schemas/relation";

const Node = z.object({ id: Uuid, content: z.string(), importance: z.number() });

export const graphOp = operation(
  {
    method: "get",
    path: "/v1/memories/{id}/graph",
    operationId: "memoryGraph",
    shared: "read",
    tags: ["relations"],
    summary: "Walk the relation graph from a memory (breadth first)",
    description:
      "`depth` 1-5 (default 2), `limit` nodes 1-200 (default 50), `relation_types` comma-separated.",
    auth: "wallet",
    request: { params: IdParam, query: graphQuery },
    responses: {
      200: json(
        z.object({
          root: Node,
          nodes: z.array(Node),
          edges: z.array(
            z.object({ source_id: Uuid, target_id: Uuid, relation_type: RelationTypeName }),
          ),
          depth: z.number().int(),
        }),
        "The memories found and the edges between them",
      ),
      404: ERRORS[404],
    },
  },
  async (c) =>
    c.json(await memoryGraph(domain(c), c.req.valid("param").id, c.req.valid("query")), 200),
);
