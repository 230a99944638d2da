import type { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, domain } from "../context";
import { valid } from "../lib/validate";
import { exportMemories, exportQuery } from "../memories/export";
import { scope } from "../memories/fields";
import { searchInput, searchMemories } from "../memories/search";
import { listNamespaces, memoryStats } from "../memories/stats";

/** Search, export and the per-wallet overviews. */
export function overviewRoutes(app: Hono<AppEnv>) {
  app.post("/v1/search", valid("json", searchInput), async (c) =>
    c.json(await searchMemories(domain(c), c.req.valid("json"))),
  );

  app.get("/v1/export", valid("query", exportQuery), async (c) =>
    c.json(await exportMemories(domain(c), c.req.valid("query"))),
  );

  app.get("/v1/namespaces", valid("query", z.object({ agent_id: scope.optional() })), async (c) =>
    c.json(await listNamespaces(domain(c), c.req.valid("query").agent_id)),
  );

  app.get("/v1/stats", valid("query", z.object({ namespace: scope.optional() })), async (c) =>
    c.json(await memoryStats(domain(c), c.req.valid("query").namespace)),
  );
}
