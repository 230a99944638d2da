import type { Hono } from "hono";
import type { AppEnv } from "../context";
import { authRoutes } from "./auth";
import { coreRoutes } from "./core";
import { memoryRoutes } from "./memories";
import { overviewRoutes } from "./overview";
import { publicRoutes } from "./public";
import { recallRoutes } from "./recall";
import { relationRoutes } from "./relations";
import { storeRoutes } from "./store";

/** Order matters: static paths (/v1/memories/core, /batch, /count) before /v1/memories/:id. */
export function registerRoutes(app: Hono<AppEnv>) {
  publicRoutes(app);
  authRoutes(app);
  storeRoutes(app);
  recallRoutes(app);
  overviewRoutes(app);
  coreRoutes(app);
  relationRoutes(app);
  memoryRoutes(app);
}
