/**
 * A paid call whose settlement's outcome was still unknown at its bound (payment.ts): the 502
 * it answers, the payment kept in the payer's Meter for the background check
 * (meter/unsettled.ts), and what a retry with the same payment identifier learns.
 *
 * The payer never loses money without a served call or a credit: once the chain shows the
 * authorization used, its price is credited (by the Meter's alarm, or by a retry's own
 * look); a retry then is served by that credit. An authorization that expires unused moved
 * nothing, and its nonce is released.
 */
import { ApiError } from "../errors";
import { logError } from "../lib/log";
import { authorizationOf } from "../payment/chain-state";
import {
  PAYMENT_ID_LEASE_SECONDS,
  PAYMENT_ID_MEMORY_SECONDS,
  paymentIdInProgress,
  replayOf,
  storedResponseOf,
} from "../payment/payment-id";
import { PAYMENT_UNSETTLED_HEADER } from "../payment/required";
import type { AppContext } from "./app-env";
import type { StoredResponse } from "./metering";
import { type PaidCall, type Run, runPaid } from "./paid-call";

export { PAYMENT_UNSETTLED_HEADER };

/** How soon a client may ask again (s): the Meter's first check is two seconds after. */
const RETRY_AFTER_SECONDS = "5";

/** Keeps the payment for the background check and says so in a 502. */
export async function unsettledAnswer(
  c: AppContext,
  call: PaidCall,
  reason: string,
  transaction: string | undefined,
): Promise<ApiError> {
  const { payment, resource, settings } = call;
  const rpcUrl = settings.rpcUrl;
  const kept =
    rpcUrl !== undefined &&
    (await c
      .get("metering")
      .wallet(payment.payer)
      .keepUnsettled(
        {
          nonce: payment.nonceKey,
          authorization: authorizationOf(payment),
          rpcUrl,
          ...(transaction ? { transaction } : {}),
          amount: Number(resource.price.atomic),
          validBefore: Number(payment.expiresAt),
        },
        Date.now(),
      )
      .then(
        () => true,
        (err: unknown) => {
          logError(`[${c.get("requestId")}] could not keep an unsettled payment`, err);
          return false;
        },
      ));
  const validBefore = new Date(Number(payment.expiresAt) * 1000).toISOString();
  return new ApiError(
    "BAD_GATEWAY",
    kept
      ? "The payment's settlement was not confirmed in time, and nothing was served. If the transfer confirms, its price is credited to this wallet and pays for its next paid call; if its authorization expires unused, nothing was taken. Retry this request with the same payment identifier to learn the outcome."
      : "The payment's settlement was not confirmed in time, and nothing was served. Its authorization stays reserved until it expires, so it cannot pay twice.",
    {
      payment: "unknown",
      reason,
      ...(transaction ? { transaction } : {}),
      ...(kept ? { credit_on_confirmation: resource.price.atomic } : {}),
      authorization_valid_before: validBefore,
    },
    { "Retry-After": RETRY_AFTER_SECONDS, [PAYMENT_UNSETTLED_HEADER]: payment.nonceKey },
  );
}

/** The identifier of a request whose payment's outcome was unknown, and the 502 it got. */
export interface UnsettledRetry {
  id: string;
  nonce: string;
  stored: StoredResponse;
}

/**
 * A retry with the payment identifier of an unknown outcome. Its own payment is not used:
 * - the chain now shows the first payment made (it was credited): the retry is served by
 *   that credit, and its answer replaces the 502 for the identifier;
 * - the first payment's authorization expired unused: 402, nothing was taken, and the
 *   identifier is free for a new payment;
 * - still unknown: the same 502.
 */
export async function retryUnsettled(
  c: AppContext,
  call: PaidCall,
  retry: UnsettledRetry,
  run: Run,
): Promise<Response> {
  const { id, nonce, stored } = retry;
  const meter = c.get("metering").wallet(call.payment.payer);
  const state = await meter.checkUnsettled(nonce);
  if (state !== "credited" && state !== "expired") return replayOf(id, stored);
  const now = Math.floor(Date.now() / 1000);
  if (!(await meter.reopenPaymentId(id, now + PAYMENT_ID_LEASE_SECONDS))) {
    throw paymentIdInProgress(id);
  }
  if (state === "expired") {
    await meter.releasePaymentId(id);
    throw await call.refuse(
      "the payment first sent with this payment identifier expired unsettled: nothing was transferred; pay again",
    );
  }
  const keepUntil = now + PAYMENT_ID_MEMORY_SECONDS;
  if (!(await meter.serveUnsettled(nonce, Date.now()))) {
    // Its credit was spent on another call meanwhile: the answer stays the 502.
    await meter.completePaymentId(id, stored, keepUntil);
    return replayOf(id, stored);
  }
  let served: Awaited<ReturnType<typeof runPaid>>;
  try {
    served = await runPaid(c, call, run);
  } catch (err) {
    await meter.releasePaymentId(id);
    throw err;
  }
  if (served.outcome === "credited") {
    await meter.releasePaymentId(id);
    return served.response;
  }
  await meter
    .completePaymentId(id, await storedResponseOf(served.response), keepUntil)
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not keep the answer of a payment identifier`, err),
    );
  return served.response;
}
