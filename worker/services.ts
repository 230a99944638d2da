import type { Services } from "./context";
import { connectDb, type Db, type DbHandle } from "./db/client";
import { workerTransport } from "./db/tcp-socket";
import { createEmbedder } from "./embed";
import type { Embedder } from "./embed/embedder";
import { type Env, parseConfig } from "./env";
import { ApiError } from "./errors";
import type { LlmProvider } from "./language-model";
import { logError } from "./lib/log";
import { createLlmProvider } from "./llm";

export interface OpenServices {
  services: Services;
  /**
   * Runs the work asked for with `afterwards`, then closes the database pool if it was
   * opened; call it once the work is done.
   */
  close(): Promise<void>;
}

/**
 * The clients of one unit of work (a request, a queue batch), built from the Worker's env.
 * Workers have no module-level env, so nothing is cached across units except what the drivers
 * cache themselves. The database pool is opened lazily (public endpoints never touch it).
 */
export function openServices(env: Env): OpenServices {
  const parsed = parseConfig(env);
  if (!parsed.ok) {
    console.error("configuration error", parsed.problems);
    throw new ApiError("INTERNAL_ERROR", "Service is misconfigured");
  }
  const config = parsed.config;
  let handle: DbHandle | undefined;
  let embedder: Embedder | undefined;
  let llm: LlmProvider | undefined;
  const later = new Map<string, (db: Db) => Promise<unknown>>();
  const open = () => {
    handle ??= connectDb(config.DATABASE_URL, workerTransport(config));
    return handle;
  };
  const services: Services = {
    config,
    get db() {
      return open().db;
    },
    connect: () => open().connect(),
    get embedder() {
      embedder ??= createEmbedder(config, env);
      return embedder;
    },
    get llm() {
      llm ??= createLlmProvider(config, env);
      return llm;
    },
    afterwards(key, task) {
      if (!later.has(key)) later.set(key, task);
    },
  };
  const close = async () => {
    for (const [key, task] of later) {
      await task(services.db).catch((err: unknown) => logError(`afterwards (${key})`, err));
    }
    later.clear();
    await handle?.close();
  };
  return { services, close };
}
