/**
 * Price classes (spec "Price classes") and the free allowance. Amounts are USDC atomic units
 * (6 decimals) as strings, the form x402 carries them in: 0.005 USDC = "5000". Which operation
 * costs what is declared with the operation itself (worker/routes/operation.ts, `price`).
 */

/** Spec "Limits": paid calls every wallet gets free. Free endpoints never use them. */
export const FREE_CALLS_PER_WALLET = 100;

export interface Price {
  /** USDC atomic units (6 decimals). */
  atomic: string;
  /** The same amount in USD, as written in the spec. */
  usd: string;
}

export const PRICES = {
  /** Store, recall, single and batch update: one embedding call. */
  embed: { atomic: "5000", usd: "0.005" },
  /** Batch store: up to 100 embeddings. */
  batch_store: { atomic: "40000", usd: "0.04" },
  /** Extract, ingest, consolidate, context, migrate: a language model. */
  language_model: { atomic: "10000", usd: "0.01" },
} as const satisfies Record<string, Price>;

export type PriceClass = keyof typeof PRICES;

/** An amount of atomic units (6 decimals) as a Price: 5000 is "0.005". */
export function priceOf(atomic: bigint | number): Price {
  const units = BigInt(atomic);
  const whole = units / 1_000_000n;
  const fraction = (units % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return { atomic: units.toString(), usd: fraction ? `${whole}.${fraction}` : `${whole}` };
}

/** `units` times `price` (an import of 250 memories costs three batch stores). */
export function priceTimes(price: Price, units: number): Price {
  return units === 1 ? price : priceOf(BigInt(price.atomic) * BigInt(units));
}
