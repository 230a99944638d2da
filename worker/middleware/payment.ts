import type { AppContext } from "../context";
import { ApiError, errorBody } from "../errors";
import type { Price } from "../meter/prices";

/** USDC on Base (chain 8453), the asset every price is quoted in. */
export const USDC_BASE = {
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  symbol: "USDC",
  decimals: 6,
} as const;

/**
 * The seam for x402: called by the free-allowance middleware (middleware/meter.ts) when a
 * paid request finds the wallet's free calls used up. Today it answers 402 with the price;
 * the x402 work extends this one function (PAYMENT-REQUIRED header, and verifying and
 * settling a PAYMENT-SIGNATURE before the handler runs).
 */
export function paymentRequired(c: AppContext, price: Price): Response {
  const error = new ApiError("PAYMENT_REQUIRED", "Free allowance used: pay per request with x402", {
    price: {
      amount: price.atomic,
      usd: price.usd,
      asset: USDC_BASE.asset,
      symbol: USDC_BASE.symbol,
      decimals: USDC_BASE.decimals,
      network: USDC_BASE.network,
    },
  });
  return c.json(errorBody(error, c.get("requestId")), error.status);
}
