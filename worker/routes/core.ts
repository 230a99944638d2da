import type { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, domain } from "../context";
import { valid } from "../lib/validate";
import { coreQuery, listCore, setPinned } from "../memories/core";
import { uuid } from "../memories/fields";
import { idParam } from "./memories";

export function coreRoutes(app: Hono<AppEnv>) {
  const list = valid("query", coreQuery);
  // The spec's path, then the clients' aliases.
  for (const path of ["/v1/memories/core", "/v1/core-memories", "/v1/core"]) {
    app.get(path, list, async (c) => c.json(await listCore(domain(c), c.req.valid("query"))));
  }

  app.post("/v1/memories/core", valid("json", z.object({ memory_id: uuid })), async (c) => {
    const id = c.req.valid("json").memory_id;
    await setPinned(domain(c), id, true);
    return c.json({ pinned: true, id });
  });

  app.delete("/v1/memories/core/:id", valid("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    await setPinned(domain(c), id, false);
    return c.json({ unpinned: true, id });
  });
}
