import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { AUTH_TOLERANCE_SECONDS } from "../auth/wallet";
import type { AppEnv } from "../context";
import { ApiError, errorBody } from "../errors";
import { afterResponse } from "../lib/after-response";
import { logError } from "../lib/log";
import { FREE_CALLS_PER_WALLET } from "../meter/prices";

const INFO_MAX_AGE_SECONDS = 300;

export function publicRoutes(app: Hono<AppEnv>) {
  app.get("/health", async (c) => {
    const services = c.get("services");
    // Which embedder and model this deployment stores vectors with (README "Embeddings");
    // building it contacts nothing, so a misconfigured one shows as a null model here.
    let model: string | null = null;
    try {
      model = services.embedder.model;
    } catch {
      // the request paths that embed report the misconfiguration
    }
    const embedder = { provider: services.config.EMBEDDER, model };
    try {
      await services.db.execute(sql`SELECT 1`);
      return c.json({ status: "ok", database: "ok", embedder });
    } catch (err) {
      logError("health check: database unreachable", err);
      const error = new ApiError("SERVICE_UNAVAILABLE", "Database unreachable");
      return c.json(errorBody(error, c.get("requestId")), 503);
    }
  });

  // Public and identical for every caller: served from the edge cache when it can be.
  app.get("/v1/free-tier/info", async (c) => {
    const cache = typeof caches === "undefined" ? undefined : caches.default;
    const key = new Request(new URL(c.req.path, c.req.url).toString(), { method: "GET" });
    const hit = await cache?.match(key);
    if (hit) return new Response(hit.body, hit);

    const prefix = c.get("services").config.AUTH_MESSAGE_PREFIX;
    const response = c.json(
      {
        free_tier: {
          enabled: true,
          calls_per_wallet: FREE_CALLS_PER_WALLET,
          description: `Every wallet gets ${FREE_CALLS_PER_WALLET} free calls to paid endpoints; free endpoints never use them.`,
        },
        auth: {
          header: "x-wallet-auth",
          format: "{wallet_address}:{unix_timestamp}:{signature}",
          message_to_sign: `${prefix}:{unix_timestamp}`,
          expiry_seconds: AUTH_TOLERANCE_SECONDS,
        },
        after_free_tier: {
          payment: "x402 (version 2): USDC on Base, settled per request",
          note: "Paid endpoints answer 402 with a PAYMENT-REQUIRED header; retry with PAYMENT-SIGNATURE.",
        },
      },
      200,
      { "Cache-Control": `public, max-age=${INFO_MAX_AGE_SECONDS}` },
    );
    if (cache) await afterResponse(c, cache.put(key, response.clone()), "caching free-tier info");
    return response;
  });
}
