import type { Permission } from "../../schema/tables";
import type { ExtraBucket } from "../meter/limits";
import type { PriceClass } from "../meter/prices";

/**
 * What the middleware needs to know about the operation a request is for, as the operation
 * declares it (operation.ts). No table keyed by path exists beside these declarations.
 */
export interface OperationMeta {
  operationId: string;
  /** `wallet`: needs a verified wallet (401 otherwise); `public`: anyone. */
  auth: "wallet" | "public";
  /** Paid: one call of the free allowance, then x402. Absent: free. */
  price?: PriceClass;
  /**
   * How many times `price` one call costs, from its validated JSON body (import: one per 100
   * memories, like the batch stores it replaces); absent: once. The free allowance gives as
   * many free calls, all or none.
   */
  units?: PriceUnits;
  /**
   * A dearer price class for a call whose validated JSON body asks for dearer work (a batch
   * update that embeds costs what a batch store does); absent: always `price`. Either way the
   * call takes one call of the free allowance.
   */
  priceIf?: PriceIf;
  /** A rate-limit bucket counted in addition to "all". */
  bucket?: ExtraBucket;
  /**
   * What a grantee needs to call it on an owner's memories (`?owner=`, docs/sharing.md):
   * `read` or `write` of the namespace. Absent: the caller's own memories only (a 403 for
   * `?owner=` naming another wallet).
   */
  shared?: Permission;
}

/** A price that counts units of the request (operation-meta's `units`). */
export interface PriceUnits {
  /** The units of a validated JSON body. */
  count: (body: unknown) => number;
  /** What one unit is, for the contract and the 402: "100 memories". */
  per: string;
}

/** A price class that a call's body can call for (operation-meta's `priceIf`). */
export interface PriceIf {
  price: PriceClass;
  /** True for a validated JSON body that costs `price`. */
  applies: (body: unknown) => boolean;
  /** When it applies, for the contract: "an item carries content (it is embedded)". */
  when: string;
}
