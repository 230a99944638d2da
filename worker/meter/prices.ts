/**
 * Price classes (spec "Price classes") and the free allowance. Amounts are USDC atomic units
 * (6 decimals) as strings, the form x402 carries them in: 0.005 USDC = "5000".
 */

/** Spec "Limits": paid calls every wallet gets free. Free endpoints never use them. */
export const FREE_CALLS_PER_WALLET = 100;

export interface Price {
  /** USDC atomic units (6 decimals). */
  atomic: string;
  /** The same amount in USD, as written in the spec. */
  usd: string;
}

const EMBED: Price = { atomic: "5000", usd: "0.005" };
const BATCH_STORE: Price = { atomic: "40000", usd: "0.04" };
const LANGUAGE_MODEL: Price = { atomic: "10000", usd: "0.01" };

const EXACT = new Map<string, Price>([
  ["POST /v1/store", EMBED],
  ["POST /v1/recall", EMBED],
  ["PATCH /v1/memories/batch", EMBED],
  // Clients' alias of PATCH /v1/memories/batch (clients.md), same price.
  ["POST /v1/memories/batch-update", EMBED],
  ["POST /v1/store/batch", BATCH_STORE],
  ["POST /v1/memories/extract", LANGUAGE_MODEL],
  ["POST /v1/memories/consolidate", LANGUAGE_MODEL],
  ["POST /v1/ingest", LANGUAGE_MODEL],
  ["POST /v1/context", LANGUAGE_MODEL],
  ["POST /v1/migrate", LANGUAGE_MODEL],
]);

/** `PATCH /v1/memories/:id`: one path segment after /v1/memories/, "batch" being matched above. */
const ONE_MEMORY = /^\/v1\/memories\/[^/]+$/;

/** The price of a request, or null for a free endpoint. */
export function priceOf(method: string, path: string): Price | null {
  const exact = EXACT.get(`${method} ${path}`);
  if (exact) return exact;
  if (method === "PATCH" && ONE_MEMORY.test(path)) return EMBED;
  return null;
}
