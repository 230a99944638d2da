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
  /** A rate-limit bucket counted in addition to "all". */
  bucket?: ExtraBucket;
}
