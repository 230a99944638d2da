/**
 * x402 version 2 for paid endpoints, called by the free-allowance middleware (meter.ts):
 *
 * - `paymentRequired`: no payment sent and no free call left: 402 with the PAYMENT-REQUIRED
 *   header (payment/required.ts).
 * - `payForCall`: a PAYMENT-SIGNATURE was sent. In order: decode it; match it against this
 *   call's requirement; claim its authorization nonce in the payer's Meter (a replay, even
 *   one racing the original, is refused here, before anything runs); have the facilitator
 *   verify it (signature, payee, amount, network, balance, nonce unused on chain); run the
 *   handler; settle only if the handler succeeded (status < 400), and answer with
 *   PAYMENT-RESPONSE. Every refusal is a 402 whose body and header carry the reason.
 *
 * A payment that is given up (refused, or the handler failed) releases its nonce: nothing
 * was transferred, so the client may send the same authorization again. A settlement whose
 * outcome is unknown (the facilitator could not be reached) keeps it, since the transfer may
 * have happened.
 */
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { Next } from "hono";
import type { AppContext } from "../context";
import { ApiError } from "../errors";
import { logError } from "../lib/log";
import type { Price } from "../meter/prices";
import { decodePayment } from "../payment/payload";
import {
  PAYMENT_RESPONSE_HEADER,
  PAYMENTS_OFF,
  type PaidResource,
  paymentRequiredError,
  type RefusalOptions,
  requirementsFor,
} from "../payment/required";
import { resourceServer } from "../payment/server";
import { paymentSettings } from "../payment/settings";

/** How long the service remembers a payment nonce at most (see Meter.claimPayment). */
const NONCE_MEMORY_SECONDS = 24 * 60 * 60;

const resourceOf = (c: AppContext): PaidResource => ({
  method: c.req.method,
  path: c.req.path,
  url: c.req.url,
});

/** The 402 for a paid call with no payment and no free call left. */
export function paymentRequired(c: AppContext, price: Price): never {
  throw paymentRequiredError(paymentSettings(c.get("services").config), price, resourceOf(c));
}

function facilitatorError(c: AppContext, what: string, err: unknown): ApiError {
  logError(`[${c.get("requestId")}] x402 facilitator: ${what} failed`, err);
  return new ApiError("BAD_GATEWAY", `Payment facilitator unavailable: could not ${what}`);
}

/** Serves a paid call against the PAYMENT-SIGNATURE it carries (see the module comment). */
export async function payForCall(
  c: AppContext,
  price: Price,
  header: string,
  next: Next,
): Promise<void> {
  const settings = paymentSettings(c.get("services").config);
  const resource = resourceOf(c);
  const refuse = (reason: string, opts: Omit<RefusalOptions, "reason"> = {}) =>
    paymentRequiredError(settings, price, resource, { ...opts, reason });
  const facilitator = settings.facilitator;
  if (!settings.payTo || !facilitator) throw refuse(PAYMENTS_OFF);

  const decoded = decodePayment(header);
  if (!decoded.ok) throw refuse(decoded.reason);
  const { payment } = decoded;
  const timings = c.get("timings");
  const server = await timings
    .measure("x402-init", () => resourceServer(settings, facilitator))
    .catch((err: unknown) => {
      throw facilitatorError(c, "start", err);
    });
  const requirement = server.findMatchingRequirements(
    requirementsFor(settings, price),
    payment.payload,
  );
  if (!requirement) {
    throw refuse(
      "the payment does not match this call's requirement (scheme, network, asset, amount, payTo)",
    );
  }

  const metering = c.get("metering");
  const { payer } = payment;
  const { nonce } = payment.authorization;
  const now = Math.floor(Date.now() / 1000);
  const validBefore = BigInt(payment.authorization.validBefore);
  const expiresAt = Number(
    validBefore < BigInt(now + NONCE_MEMORY_SECONDS) ? validBefore : now + NONCE_MEMORY_SECONDS,
  );
  const claim = await timings.measure("x402-nonce", () =>
    metering.claimPayment(payer, nonce, expiresAt, now),
  );
  if (!claim.claimed) {
    throw refuse(
      claim.state === "settled"
        ? "payment already used: its authorization nonce was settled"
        : "payment already in use by another request",
    );
  }

  let keepNonce = false;
  try {
    const verified = await timings
      .measure("x402-verify", () => server.verifyPayment(payment.payload, requirement))
      .catch((err: unknown) => {
        throw facilitatorError(c, "verify the payment", err);
      });
    if (!verified.isValid) {
      throw refuse(verified.invalidReason ?? "invalid payment", {
        detail: verified.invalidMessage,
      });
    }

    await next();
    // A failed call is not charged: its response goes out as it is, without settling.
    if (c.res.status >= 400) return;

    const settled = await timings
      .measure("x402-settle", () => server.settlePayment(payment.payload, requirement))
      .catch((err: unknown) => {
        keepNonce = true;
        throw facilitatorError(c, "settle the payment", err);
      });
    const receipt = encodePaymentResponseHeader(settled);
    if (!settled.success) {
      throw refuse(`settlement failed: ${settled.errorReason ?? "unknown reason"}`, {
        detail: settled.errorMessage,
        headers: { [PAYMENT_RESPONSE_HEADER]: receipt },
      });
    }
    keepNonce = true;
    c.header(PAYMENT_RESPONSE_HEADER, receipt);
    // Best effort: a nonce left 'pending' refuses replays just the same.
    await metering
      .settlePayment(payer, nonce)
      .catch((err: unknown) =>
        logError(`[${c.get("requestId")}] could not record a settled payment`, err),
      );
  } finally {
    if (!keepNonce) {
      await metering
        .releasePayment(payer, nonce)
        .catch((err: unknown) =>
          logError(`[${c.get("requestId")}] could not release a payment nonce`, err),
        );
    }
  }
}
