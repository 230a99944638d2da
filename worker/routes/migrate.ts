import type { Hono } from "hono";
import { type AppEnv, domain } from "../context";
import { valid } from "../lib/validate";
import { migrateFiles, migrateInput } from "../migrate/migrate";

export function migrateRoutes(app: Hono<AppEnv>) {
  app.post("/v1/migrate", valid("json", migrateInput), async (c) =>
    c.json(await migrateFiles(domain(c), c.req.valid("json")), 201),
  );
}
