import { z } from "@hono/zod-openapi";
import { AUTH_TOLERANCE_SECONDS } from "../../../auth/wallet";
import { FREE_CALLS_PER_WALLET } from "../../../meter/prices";
import { cachedPublic } from "../../edge-cache";
import { json, operation } from "../../operation";

export const freeTierInfoOp = operation(
  {
    method: "get",
    path: "/v1/free-tier/info",
    operationId: "freeTierInfo",
    tags: ["free tier"],
    summary: "How the free tier, wallet auth and payment work (public, cached)",
    auth: "public",
    responses: {
      200: json(
        z.object({
          free_tier: z.object({
            enabled: z.boolean(),
            calls_per_wallet: z.number().int(),
            description: z.string(),
          }),
          auth: z.object({
            header: z.string(),
            format: z.string(),
            message_to_sign: z.string(),
            expiry_seconds: z.number().int(),
          }),
          after_free_tier: z.object({ payment: z.string(), note: z.string() }),
        }),
        "The rules",
      ),
    },
  },
  (c) =>
    cachedPublic(c, () => {
      const prefix = c.get("services").config.AUTH_MESSAGE_PREFIX;
      return c.json(
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
            payment: "x402 (version 2): USDC on Base, settled per request (EIP-3009 or Permit2)",
            note: "Paid endpoints answer 402 with a PAYMENT-REQUIRED header; retry with PAYMENT-SIGNATURE. The payment settles before the call runs; a call that then fails is credited to the wallet.",
          },
        },
        200,
      );
    }),
);
