import { z } from "@hono/zod-openapi";
import { afterResponse } from "../../lib/after-response";
import { domain } from "../../middleware/app-env";
import { recordAccess } from "../../recall/access";
import { recall } from "../../recall/recall";
import { recallInput } from "../../recall/request";
import { json, operation } from "../operation";
import { Memory, Uuid } from "../schemas/memory";
import { RelationTypeName } from "../schemas/relation";

const Signals = z.object({
  vector: z.number(),
  keyword: z.number(),
  recency: z.number(),
  base_importance: z.number(),
  effective_importance: z.number(),
  context_importance: z.number(),
  relation_count: z.number(),
  type_decay: z.number(),
});

const RecalledMemory = Memory.pick({
  id: true,
  content: true,
  metadata: true,
  tags: true,
  importance: true,
  namespace: true,
  memory_type: true,
  session_id: true,
  agent_id: true,
  created_at: true,
  access_count: true,
  pinned: true,
  created_by: true,
  occurred_at: true,
  supersedes: true,
  superseded_by: true,
}).extend({
  similarity: z.number().openapi({ description: "The weighted score of the spec's formula" }),
  immutable: z.boolean().openapi({ description: "Beside the spec's fields, for the public SDKs" }),
  relations: z
    .array(
      z.object({
        id: Uuid,
        source_id: Uuid,
        target_id: Uuid,
        relation_type: RelationTypeName,
        direction: z.enum(["outgoing", "incoming"]),
      }),
    )
    .optional()
    .openapi({ description: "With include_relations" }),
  _signals: Signals,
});

export const recallOp = operation(
  {
    method: "post",
    path: "/v1/recall",
    operationId: "recall",
    shared: "read",
    tags: ["recall"],
    summary: "Recall memories by meaning, ranked by the hybrid score",
    auth: "wallet",
    price: "embed",
    request: { body: { content: { "application/json": { schema: recallInput } } } },
    responses: {
      200: json(
        z.object({ memories: z.array(RecalledMemory), query_tokens: z.number().int() }),
        "Best first",
      ),
    },
  },
  async (c) => {
    const ctx = domain(c);
    const result = await recall(ctx, c.req.valid("json"));
    // Counted after the response; the query is issued now, while the request's pool is open.
    await afterResponse(
      c,
      recordAccess(
        ctx,
        result.memories.map((m) => m.id),
      ),
      "recording recall access",
    );
    return c.json(result, 200);
  },
);
