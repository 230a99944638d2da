/**
 * What became of a settlement that did not say "settled": an unknown outcome is never taken
 * for a refusal (issue #44: a facilitator's `settlement_pending` was answered 402 while the
 * transfer had gone through). The chain is asked instead, until a deadline:
 *
 * - the receipt of a settlement transaction the facilitator named: success is paid; a revert
 *   moved nothing (unless the authorization was used some other way, checked next);
 * - the authorization's own state (chain-state.ts): used means the money moved.
 *
 * A failure that provably sent nothing (the facilitator refused before sending, or the
 * in-process facilitator's pre-send simulation refused it) is a refusal at once, with no
 * chain read. Anything else still unknown at the deadline stays unknown: the caller answers
 * 502, keeps the payment, and the payer's Meter checks the chain in the background.
 */
import type { Hex } from "viem";
import { type AuthorizationRef, authorizationUsed, transactionStatus } from "./chain-state";

/** What the chain says of a payment, as far as it could tell before the deadline. */
export type Finding =
  | { outcome: "paid"; transaction?: string }
  | { outcome: "refused" }
  | { outcome: "unknown"; transaction?: string };

/** How often the chain is asked again while the outcome is unknown. */
const POLL_MS = 500;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Asks the chain what became of `auth` (and of `transaction`, if named) until `untilMs`. */
export async function findOut(
  rpcUrl: string | undefined,
  auth: AuthorizationRef,
  transaction: string | undefined,
  untilMs: number,
): Promise<Finding> {
  const tx =
    transaction && /^0x[0-9a-fA-F]{64}$/.test(transaction) ? (transaction as Hex) : undefined;
  if (!rpcUrl) return { outcome: "unknown", ...(tx ? { transaction: tx } : {}) };
  for (;;) {
    const status = tx ? await transactionStatus(rpcUrl, tx) : "unknown";
    if (status === "success") return { outcome: "paid", transaction: tx };
    const used = await authorizationUsed(rpcUrl, auth).catch(() => undefined);
    if (used)
      return { outcome: "paid", ...(status === "reverted" ? {} : tx ? { transaction: tx } : {}) };
    // A reverted settlement moved nothing, and the authorization is still unused.
    if (status === "reverted" && used === false) return { outcome: "refused" };
    if (Date.now() + POLL_MS > untilMs) {
      return { outcome: "unknown", ...(tx ? { transaction: tx } : {}) };
    }
    await sleep(POLL_MS);
  }
}
