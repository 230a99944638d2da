import type { Hono } from "hono";
import type { AppEnv } from "../context";
import { requireWallet } from "../middleware/auth";
import { authRoutes } from "./auth";
import { coreRoutes } from "./core";
import { memoryRoutes } from "./memories";
import { overviewRoutes } from "./overview";
import { publicRoutes } from "./public";
import { recallRoutes } from "./recall";
import { relationRoutes } from "./relations";
import { storeRoutes } from "./store";

/** Order matters: static paths (/v1/memories/core, /batch, /count) before /v1/memories/:id. */
/** The only /v1 paths that need no wallet identity. */
const PUBLIC_PATHS = new Set(["/v1/free-tier/info"]);

export function registerRoutes(app: Hono<AppEnv>) {
  // One place decides who must be identified: every /v1 route but the public ones. A
  // per-group app.use() would only cover handlers registered after it, which is fragile.
  app.use("/v1/*", (c, next) => (PUBLIC_PATHS.has(c.req.path) ? next() : requireWallet(c, next)));
  publicRoutes(app);
  authRoutes(app);
  storeRoutes(app);
  recallRoutes(app);
  overviewRoutes(app);
  coreRoutes(app);
  relationRoutes(app);
  memoryRoutes(app);
}
