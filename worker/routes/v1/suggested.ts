import { z } from "@hono/zod-openapi";
import { domain } from "../../middleware/app-env";
import { CATEGORIES, suggest, suggestedQuery } from "../../recall/suggested";
import { json, operation } from "../operation";
import { Memory } from "../schemas/memory";

const Suggestion = Memory.pick({
  id: true,
  content: true,
  metadata: true,
  importance: true,
  memory_type: true,
  namespace: true,
  session_id: true,
  agent_id: true,
  created_at: true,
  accessed_at: true,
  access_count: true,
  created_by: true,
  occurred_at: true,
  supersedes: true,
  superseded_by: true,
}).extend({
  relation_count: z.number().int(),
  category: z.enum(CATEGORIES),
  review_score: z.number(),
});

export const suggestedOp = operation(
  {
    method: "get",
    path: "/v1/suggested",
    operationId: "suggested",
    shared: "read",
    tags: ["recall"],
    summary: "Memories worth a look: stale, fresh, hot or decaying",
    auth: "wallet",
    request: { query: suggestedQuery },
    responses: {
      200: json(
        z.object({
          suggested: z.array(Suggestion),
          suggestions: z.array(Suggestion).openapi({ description: "The same list (MCP clients)" }),
          categories: z.object({
            stale: z.number().int(),
            fresh: z.number().int(),
            hot: z.number().int(),
            decaying: z.number().int(),
          }),
          total: z.number().int(),
        }),
        "Best first",
      ),
    },
  },
  async (c) => {
    const result = await suggest(domain(c), c.req.valid("query"));
    // Client extra: the public MCP server reads the same list as `suggestions`.
    return c.json({ ...result, suggestions: result.suggested }, 200);
  },
);
