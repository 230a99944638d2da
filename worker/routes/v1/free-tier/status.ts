import { z } from "@hono/zod-openapi";
import { FREE_CALLS_PER_WALLET } from "../../../meter/prices";
import { json, operation } from "../../operation";

export const freeTierStatusOp = operation(
  {
    method: "get",
    path: "/v1/free-tier/status",
    operationId: "freeTierStatus",
    tags: ["free tier"],
    summary: "The wallet's free allowance",
    auth: "wallet",
    responses: {
      200: json(
        z.object({
          wallet: z.string(),
          free_tier_remaining: z.number().int(),
          free_tier_total: z.number().int(),
          free_tier_used: z.number().int(),
        }),
        "The spec's free tier status record",
      ),
    },
  },
  async (c) => {
    const { wallet } = c.get("caller");
    const usage = await c.get("metering").wallet(wallet).freeStatus(FREE_CALLS_PER_WALLET);
    return c.json(
      {
        wallet,
        free_tier_remaining: usage.remaining,
        free_tier_total: FREE_CALLS_PER_WALLET,
        free_tier_used: usage.used,
      },
      200,
    );
  },
);
