import { createMiddleware } from "hono/factory";
import type { AppEnv, Services } from "../context";
import { connectDb, type DbHandle } from "../db/client";
import { createEmbedder } from "../embed";
import type { Embedder } from "../embed/embedder";
import { parseConfig } from "../env";
import { ApiError } from "../errors";
import { afterResponse } from "../lib/after-response";
import { createLlmProvider } from "../llm";
import type { LlmProvider } from "../llm/provider";

/**
 * Builds the per-request clients. Workers have no module-level env, so nothing is cached
 * across requests except what the drivers cache themselves. The database pool is opened
 * lazily (public endpoints never touch it) and closed once the response is sent.
 */
export const services = createMiddleware<AppEnv>(async (c, next) => {
  const parsed = parseConfig(c.env);
  if (!parsed.ok) {
    console.error("configuration error", parsed.problems);
    throw new ApiError("INTERNAL_ERROR", "Service is misconfigured");
  }
  const config = parsed.config;
  let handle: DbHandle | undefined;
  let embedder: Embedder | undefined;
  let llm: LlmProvider | undefined;
  const value: Services = {
    config,
    get db() {
      handle ??= connectDb(config.DATABASE_URL, config.NEON_WS_PROXY);
      return handle.db;
    },
    get embedder() {
      embedder ??= createEmbedder(config, c.env);
      return embedder;
    },
    get llm() {
      llm ??= createLlmProvider(config, c.env);
      return llm;
    },
  };
  c.set("services", value);
  try {
    await next();
  } finally {
    if (handle) await afterResponse(c, handle.close(), "closing the database pool");
  }
});
