/**
 * x402 version 2 for paid endpoints, called by the free-allowance middleware (meter.ts):
 *
 * - `paymentRequired`: no payment sent and no free call left: 402 with the PAYMENT-REQUIRED
 *   header (payment/required.ts), which declares the x402 extensions (payment/extensions.ts).
 * - `payForCall`: a PAYMENT-SIGNATURE was sent. In order: decode it; match it against this
 *   call's requirement; if it carries a payment identifier, claim that for this request
 *   (below); claim its authorization nonce in the payer's Meter (a replay, even one racing
 *   the original, is refused here, before anything runs); have the facilitator verify it
 *   (signature, payee, amount, network, balance, nonce unused on chain); run the handler;
 *   settle only if the handler succeeded (status < 400), and answer with PAYMENT-RESPONSE.
 *   Every refusal is a 402 whose body and header carry the reason.
 *
 * A payment that is given up (refused, or the handler failed) releases its nonce: nothing
 * was transferred, so the client may send the same authorization again. A settlement whose
 * outcome is unknown (the facilitator could not be reached) keeps it, since the transfer may
 * have happened.
 *
 * Payment identifiers (payment/payment-id.ts), claimed atomically in the payer's Meter: a new
 * one runs the request and keeps its answer once the payment may have moved (settled, or
 * settlement outcome unknown); the same request again gets that answer back without paying;
 * another request with it is a 409, and so is a duplicate that arrives while the first is
 * still running. A request given up without paying frees its identifier for a retry.
 */
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import type { Next } from "hono";
import { ApiError, errorBody } from "../errors";
import { logError } from "../lib/log";
import type { PaidRoute } from "../payment/paid-route";
import { type DecodedPayment, decodePayment, verifyPayer } from "../payment/payload";
import {
  PAYMENT_ID_LEASE_SECONDS,
  PAYMENT_ID_MEMORY_SECONDS,
  paymentIdConflict,
  paymentIdInProgress,
  paymentIdOf,
  replayOf,
  requestFingerprint,
  storedResponseOf,
} from "../payment/payment-id";
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
import type { AppContext } from "./app-env";
import type { StoredResponse, WalletMeter } from "./metering";

/** How long the service remembers a payment nonce at most (see Meter.claimPayment). */
const NONCE_MEMORY_SECONDS = 24 * 60 * 60;

/** The declared paid route of this request; every priced operation has one. */
function paidRouteOf(c: AppContext): PaidRoute {
  const route = c.get("paidRoutes").find(c.req.method, c.req.path);
  if (!route) {
    logError(`[${c.get("requestId")}] no paid route for ${c.req.method} ${c.req.path}`);
    throw new ApiError("INTERNAL_ERROR", "Internal server error");
  }
  return route;
}

const resourceOf = (c: AppContext): PaidResource => ({
  request: c.req.raw,
  route: paidRouteOf(c),
});

/** The 402 for a paid call with no payment and no free call left. */
export async function paymentRequired(c: AppContext): Promise<never> {
  throw await paymentRequiredError(paymentSettings(c.get("services").config), resourceOf(c));
}

function facilitatorError(c: AppContext, what: string, err: unknown): ApiError {
  logError(`[${c.get("requestId")}] x402 facilitator: ${what} failed`, err);
  return new ApiError("BAD_GATEWAY", `Payment facilitator unavailable: could not ${what}`);
}

/** A paid call whose payment decoded and matches its requirement. */
interface PaidCall {
  payment: DecodedPayment;
  requirement: PaymentRequirements;
  server: Awaited<ReturnType<typeof resourceServer>>;
  refuse: (reason: string, opts?: Omit<RefusalOptions, "reason">) => Promise<ApiError>;
}

/** How a charge ended: settled, nothing moved (the handler failed), or unknown. */
type Charge =
  | { outcome: "settled" }
  | { outcome: "unsettled" }
  | { outcome: "unknown"; error: ApiError };

/** Serves a paid call against the PAYMENT-SIGNATURE it carries (see the module comment). */
export async function payForCall(
  c: AppContext,
  header: string,
  next: Next,
): Promise<Response | undefined> {
  const settings = paymentSettings(c.get("services").config);
  const resource = resourceOf(c);
  const refuse = (reason: string, opts: Omit<RefusalOptions, "reason"> = {}) =>
    paymentRequiredError(settings, resource, { ...opts, reason });
  const facilitator = settings.facilitator;
  if (!settings.payTo || !facilitator) throw await refuse(PAYMENTS_OFF);

  const decoded = decodePayment(header);
  if (!decoded.ok) throw await refuse(decoded.reason);
  const { payment } = decoded;
  const server = await c
    .get("timings")
    .measure("x402-init", () => resourceServer(settings, facilitator))
    .catch((err: unknown) => {
      throw facilitatorError(c, "start", err);
    });
  const requirement = server.findMatchingRequirements(
    requirementsFor(settings, resource.route.price),
    payment.payload,
  );
  if (!requirement) {
    throw await refuse(
      "the payment does not match this call's requirement (scheme, network, asset, amount, payTo)",
    );
  }
  const call: PaidCall = { payment, requirement, server, refuse };
  const id = paymentIdOf(payment.payload);
  if (!id.ok) throw await refuse(id.reason);
  if (id.id === null) {
    const charged = await charge(c, call, next);
    if (charged.outcome === "unknown") throw charged.error;
    return undefined;
  }
  return chargeOnce(c, call, id.id, next);
}

/** A paid call with a payment identifier: answered once, replayed to its retries. */
async function chargeOnce(
  c: AppContext,
  call: PaidCall,
  id: string,
  next: Next,
): Promise<Response | undefined> {
  // Only a payment signed by its payer may take an identifier in the payer's Meter.
  const signer = await verifyPayer(call.payment);
  if (!signer.ok) throw await call.refuse(signer.reason);
  const meter = c.get("metering").wallet(call.payment.payer);
  const fingerprint = await requestFingerprint(
    c.get("caller").wallet,
    c.req.raw,
    await c.req.text(),
  );
  const now = Math.floor(Date.now() / 1000);
  const claim = await c
    .get("timings")
    .measure("x402-id", () =>
      meter.claimPaymentId(id, fingerprint, now + PAYMENT_ID_LEASE_SECONDS, now),
    );
  if (claim.outcome === "conflict") throw paymentIdConflict(id);
  if (claim.outcome === "in_progress") throw paymentIdInProgress(id);
  if (claim.outcome === "replay") return replayOf(id, claim.response);

  let charged: Charge;
  try {
    charged = await charge(c, call, next);
  } catch (err) {
    await releaseId(c, meter, id);
    throw err;
  }
  if (charged.outcome === "unsettled") {
    await releaseId(c, meter, id);
    return undefined;
  }
  const answer: StoredResponse =
    charged.outcome === "settled"
      ? await storedResponseOf(c.res)
      : {
          status: charged.error.status,
          body: JSON.stringify(errorBody(charged.error, c.get("requestId"))),
          headers: { "content-type": "application/json" },
        };
  const keepUntil = Math.floor(Date.now() / 1000) + PAYMENT_ID_MEMORY_SECONDS;
  // Best effort: a row left 'pending' still turns duplicates away until its lease ends.
  await meter
    .completePaymentId(id, answer, keepUntil)
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not keep the answer of a payment identifier`, err),
    );
  if (charged.outcome === "unknown") throw charged.error;
  return undefined;
}

async function releaseId(c: AppContext, meter: WalletMeter, id: string) {
  await meter
    .releasePaymentId(id)
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not release a payment identifier`, err),
    );
}

/**
 * Claims the payment's nonce, verifies, runs the handler and settles (module comment). A
 * refusal throws (nothing moved); a settlement whose outcome is unknown is returned, not
 * thrown, so that a payment identifier can keep the answer it gets.
 */
async function charge(c: AppContext, call: PaidCall, next: Next): Promise<Charge> {
  const { payment, requirement, server, refuse } = call;
  const timings = c.get("timings");
  const meter = c.get("metering").wallet(payment.payer);
  const { nonce } = payment.authorization;
  const now = Math.floor(Date.now() / 1000);
  const validBefore = BigInt(payment.authorization.validBefore);
  const expiresAt = Number(
    validBefore < BigInt(now + NONCE_MEMORY_SECONDS) ? validBefore : now + NONCE_MEMORY_SECONDS,
  );
  const claim = await timings.measure("x402-nonce", () =>
    meter.claimPayment(nonce, expiresAt, now),
  );
  if (!claim.claimed) {
    throw await refuse(
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
      throw await refuse(verified.invalidReason ?? "invalid payment", {
        detail: verified.invalidMessage,
      });
    }

    await next();
    // A failed call is not charged: its response goes out as it is, without settling.
    if (c.res.status >= 400) return { outcome: "unsettled" };

    let settled: Awaited<ReturnType<typeof server.settlePayment>>;
    try {
      settled = await timings.measure("x402-settle", () =>
        server.settlePayment(payment.payload, requirement),
      );
    } catch (err) {
      keepNonce = true;
      return { outcome: "unknown", error: facilitatorError(c, "settle the payment", err) };
    }
    const receipt = encodePaymentResponseHeader(settled);
    if (!settled.success) {
      throw await refuse(`settlement failed: ${settled.errorReason ?? "unknown reason"}`, {
        detail: settled.errorMessage,
        headers: { [PAYMENT_RESPONSE_HEADER]: receipt },
      });
    }
    keepNonce = true;
    c.header(PAYMENT_RESPONSE_HEADER, receipt);
    // Best effort: a nonce left 'pending' refuses replays just the same.
    await meter
      .settlePayment(nonce)
      .catch((err: unknown) =>
        logError(`[${c.get("requestId")}] could not record a settled payment`, err),
      );
    return { outcome: "settled" };
  } finally {
    if (!keepNonce) {
      await meter
        .releasePayment(nonce)
        .catch((err: unknown) =>
          logError(`[${c.get("requestId")}] could not release a payment nonce`, err),
        );
    }
  }
}
