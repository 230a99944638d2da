/**
 * A paid route as the payment code sees it: its contract (method, path template, schemas),
 * its price and its bazaar declaration. worker/routes builds one per priced route of the
 * served document (aliases included) and answers which one a request is for, so the 402 and
 * GET /.well-known/x402 describe a route the same way.
 */
import type { Price } from "../meter/prices";
import type { RouteContract } from "./bazaar";

export interface PaidRoute {
  contract: RouteContract;
  price: Price;
  /** What the price is per when a call counts units ("100 memories"); absent: per call. */
  per?: string;
  /** A dearer price a call's body can ask for (operation-meta's `priceIf`), and when. */
  dearer?: { price: Price; when: string };
  /** declareBazaar(contract): the same for every request, enriched per request. */
  bazaar: Record<string, unknown>;
}

/** The paid routes of the served contract (implemented by worker/routes, read by middleware). */
export interface PaidRoutes {
  /** Every priced route, in document order. */
  all(): PaidRoute[];
  /** The priced route a request's method and path are for; undefined for a free one. */
  find(method: string, path: string): PaidRoute | undefined;
}
