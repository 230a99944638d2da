import { z } from "@hono/zod-openapi";
import { FREE_CALLS_PER_WALLET, priceOf } from "../../../meter/prices";
import { json, operation } from "../../operation";

const creditOf = (atomic: number) => {
  const { atomic: amount, usd } = priceOf(atomic);
  return { amount, usd };
};

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
          credit: z
            .object({
              amount: z.string().openapi({ description: "USDC atomic units (6 decimals)" }),
              usd: z.string(),
            })
            .optional()
            .openapi({
              description:
                "Only when the wallet holds any: what it paid for calls that failed after their payment settled. It pays for its next paid calls sent without a payment.",
            }),
        }),
        "The spec's free tier status record, and the wallet's credit when it holds any",
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
        ...(usage.credit ? { credit: creditOf(usage.credit) } : {}),
      },
      200,
    );
  },
);
