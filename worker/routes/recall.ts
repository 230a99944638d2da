import type { Hono } from "hono";
import { type AppEnv, domain } from "../context";
import { afterResponse } from "../lib/after-response";
import { valid } from "../lib/validate";
import { buildContext, contextInput } from "../recall/context";
import { recall, recallInput, recordAccess } from "../recall/recall";
import { suggest, suggestedQuery } from "../recall/suggested";

export function recallRoutes(app: Hono<AppEnv>) {
  app.post("/v1/recall", valid("json", recallInput), async (c) => {
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
    return c.json(result);
  });

  app.post("/v1/context", valid("json", contextInput), async (c) => {
    const ctx = domain(c);
    const { result, accessed } = await buildContext(ctx, c.req.valid("json"));
    await afterResponse(c, recordAccess(ctx, accessed), "recording context access");
    return c.json(result);
  });

  app.get("/v1/suggested", valid("query", suggestedQuery), async (c) => {
    const result = await suggest(domain(c), c.req.valid("query"));
    // Client extra: the public MCP server reads the same list as `suggestions`.
    return c.json({ ...result, suggestions: result.suggested });
  });
}
