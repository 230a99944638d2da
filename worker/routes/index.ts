import type { Hono } from "hono";
import type { AppEnv } from "../context";
import { requireWallet } from "../middleware/auth";
import { freeAllowance } from "../middleware/meter";
import { authRoutes } from "./auth";
import { consolidateRoutes } from "./consolidate";
import { coreRoutes } from "./core";
import { freeTierRoutes } from "./free-tier";
import { jobRoutes } from "./jobs";
import { llmRoutes } from "./llm";
import { memoryRoutes } from "./memories";
import { migrateRoutes } from "./migrate";
import { overviewRoutes } from "./overview";
import { publicRoutes } from "./public";
import { recallRoutes } from "./recall";
import { relationRoutes } from "./relations";
import { storeRoutes } from "./store";

/** The only /v1 paths that need no wallet identity. */
const PUBLIC_PATHS = new Set(["/v1/free-tier/info"]);

/**
 * Runs after the app-wide identify and rateLimit middleware (app.ts), so every response here
 * already carries the rate-limit headers and the caller's identity is known (or known bad).
 * Order matters: static paths (/v1/memories/core, /batch, /count) before /v1/memories/:id.
 */
export function registerRoutes(app: Hono<AppEnv>) {
  // One place decides who must be identified: every /v1 route but the public ones. A
  // per-group app.use() would only cover handlers registered after it, which is fragile.
  app.use("/v1/*", (c, next) => (PUBLIC_PATHS.has(c.req.path) ? next() : requireWallet(c, next)));
  // Then paid endpoints take a free call or go to payment (public paths are all free).
  app.use("/v1/*", freeAllowance);
  publicRoutes(app);
  freeTierRoutes(app);
  authRoutes(app);
  storeRoutes(app);
  recallRoutes(app);
  migrateRoutes(app);
  consolidateRoutes(app);
  llmRoutes(app);
  jobRoutes(app);
  overviewRoutes(app);
  coreRoutes(app);
  relationRoutes(app);
  memoryRoutes(app);
}
