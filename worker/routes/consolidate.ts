import type { Hono } from "hono";
import { consolidate, consolidateInput } from "../consolidate/consolidate";
import { type AppEnv, domain } from "../context";
import { valid } from "../lib/validate";

export function consolidateRoutes(app: Hono<AppEnv>) {
  app.post("/v1/memories/consolidate", valid("json", consolidateInput), async (c) =>
    c.json(await consolidate(domain(c), c.req.valid("json"))),
  );
}
