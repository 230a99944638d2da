import type { Hono } from "hono";
import type { AppEnv } from "../context";
import { FREE_CALLS_PER_WALLET } from "../meter/prices";

export function freeTierRoutes(app: Hono<AppEnv>) {
  // The spec's "Free tier status" record, exactly.
  app.get("/v1/free-tier/status", async (c) => {
    const { wallet } = c.get("caller");
    const usage = await c.get("metering").freeStatus(wallet, FREE_CALLS_PER_WALLET);
    return c.json({
      wallet,
      free_tier_remaining: usage.remaining,
      free_tier_total: FREE_CALLS_PER_WALLET,
      free_tier_used: usage.used,
    });
  });
}
