/**
 * x402 version 2 at the charge point of a paid operation (charge.ts), for a call that carries
 * a PAYMENT-SIGNATURE. The payment settles BEFORE the handler runs: no paid work (a write, an
 * embedding, a language-model call) is done for a payment that could still fail. In order:
 *
 * 1. decode it (EIP-3009 or Permit2, payment/payload.ts);
 * 2. check that it pays for this call (`bindingProblem`): for this URL, by the caller, and
 *    match it against this call's requirement (scheme, network, asset, amount, payTo);
 * 3. if it carries a payment identifier, claim that for this request (below);
 * 4. claim its authorization nonce in the payer's Meter: a replay, even one racing the
 *    original, is refused here;
 * 5. have the facilitator verify it (signature, payee, amount, balance, nonce unused on
 *    chain), then settle it, and wait for the transfer;
 * 6. run the handler, and answer with PAYMENT-RESPONSE (the transaction).
 *
 * Every refusal before the transfer is a 402 whose body and header carry the reason, and
 * nothing has run. A payer who sends more payments at once than its balance covers gets
 * exactly as many calls as settle: each one's transfer is final before its handler starts.
 *
 * A call that fails after its payment settled (the memory to PATCH is missing, the database
 * went away) is not charged either: its price goes to the payer's credit in its Meter, which
 * pays for its next paid call sent without a payment (charge.ts). Its answer says so in
 * `X-Payment-Credited`.
 *
 * A payment given up before it settled releases its nonce: nothing was transferred, so the
 * client may send the same authorization again. A settlement whose outcome is unknown (the
 * facilitator could not be reached) keeps it, since the transfer may have happened, and
 * nothing is served (502).
 *
 * Payment identifiers (payment/payment-id.ts), claimed atomically in the payer's Meter: a new
 * one runs the request and keeps its answer once it was served and paid (or the settlement's
 * outcome is unknown); the same request again gets that answer back without paying; another
 * request with it is a 409, and so is a duplicate that arrives while the first is still
 * running. A request given up unpaid, or failed and credited, frees its identifier for a
 * retry (which its credit then pays for).
 */
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { ApiError } from "../errors";
import { logError } from "../lib/log";
import { bindingProblem } from "../payment/binding";
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
  requirementOfMethod,
  requirementsFor,
} from "../payment/required";
import { resourceServer } from "../payment/server";
import { paymentSettings } from "../payment/settings";
import type { AppContext } from "./app-env";
import { errorResponse } from "./error-response";
import type { StoredResponse, WalletMeter } from "./metering";

/** How long the service remembers a payment nonce at most (see Meter.claimPayment). */
const NONCE_MEMORY_SECONDS = 24 * 60 * 60;

/** The header of a failed answer whose settled payment went to the payer's credit. */
export const PAYMENT_CREDITED_HEADER = "X-Payment-Credited";

/** The handler of the paid call, its thrown errors already rendered as responses. */
export type Run = () => Promise<Response>;

function facilitatorError(c: AppContext, what: string, err: unknown): ApiError {
  logError(`[${c.get("requestId")}] x402 facilitator: ${what} failed`, err);
  return new ApiError("BAD_GATEWAY", `Payment facilitator unavailable: could not ${what}`);
}

/** A paid call whose payment decoded, pays for this call, and matches its requirement. */
interface PaidCall {
  payment: DecodedPayment;
  requirement: PaymentRequirements;
  resource: PaidResource;
  server: Awaited<ReturnType<typeof resourceServer>>;
  refuse: (reason: string, opts?: Omit<RefusalOptions, "reason">) => Promise<ApiError>;
}

/** How a settlement ended: settled (with its receipt), or unknown (nothing was served). */
type Settlement = { outcome: "settled"; receipt: string } | { outcome: "unknown"; error: ApiError };

/** How a paid call ended, for its payment identifier. */
type Served =
  | { outcome: "served"; response: Response }
  | { outcome: "credited"; response: Response }
  | { outcome: "unknown"; response: Response };

/** Serves a paid call against the PAYMENT-SIGNATURE it carries (see the module comment). */
export async function payForCall(
  c: AppContext,
  header: string,
  resource: PaidResource,
  run: Run,
): Promise<Response> {
  const settings = paymentSettings(c.get("services").config);
  const refuse = (reason: string, opts: Omit<RefusalOptions, "reason"> = {}) =>
    paymentRequiredError(settings, resource, { ...opts, reason });
  const facilitator = settings.facilitator;
  if (!settings.payTo || !facilitator) throw await refuse(PAYMENTS_OFF);

  const decoded = decodePayment(header);
  if (!decoded.ok) throw await refuse(decoded.reason);
  const { payment } = decoded;
  const unbound = bindingProblem(c.req.raw, c.get("caller").wallet, payment);
  if (unbound) throw await refuse(unbound);
  const server = await c
    .get("timings")
    .measure("x402-init", () => resourceServer(settings, facilitator))
    .catch((err: unknown) => {
      throw facilitatorError(c, "start", err);
    });
  const ofMethod = requirementOfMethod(requirementsFor(settings, resource.price), payment.method);
  const requirement = ofMethod && server.findMatchingRequirements([ofMethod], payment.payload);
  if (!requirement) {
    throw await refuse(
      "the payment does not match this call's requirement (scheme, network, asset, amount, payTo)",
    );
  }
  const call: PaidCall = { payment, requirement, resource, server, refuse };
  const id = paymentIdOf(payment.payload);
  if (!id.ok) throw await refuse(id.reason);
  if (id.id === null) return (await settleAndRun(c, call, run)).response;
  return chargeOnce(c, call, id.id, run);
}

/** A paid call with a payment identifier: answered once, replayed to its retries. */
async function chargeOnce(c: AppContext, call: PaidCall, id: string, run: Run): Promise<Response> {
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

  let served: Served;
  try {
    served = await settleAndRun(c, call, run);
  } catch (err) {
    await releaseId(c, meter, id);
    throw err;
  }
  if (served.outcome === "credited") {
    await releaseId(c, meter, id);
    return served.response;
  }
  const answer: StoredResponse = await storedResponseOf(served.response);
  const keepUntil = Math.floor(Date.now() / 1000) + PAYMENT_ID_MEMORY_SECONDS;
  // Best effort: a row left 'pending' still turns duplicates away until its lease ends.
  await meter
    .completePaymentId(id, answer, keepUntil)
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not keep the answer of a payment identifier`, err),
    );
  return served.response;
}

async function releaseId(c: AppContext, meter: WalletMeter, id: string) {
  await meter
    .releasePaymentId(id)
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not release a payment identifier`, err),
    );
}

/**
 * Settles the payment, then runs the handler. A refusal throws (nothing moved, nothing ran);
 * a settlement whose outcome is unknown is answered 502 without running anything.
 */
async function settleAndRun(c: AppContext, call: PaidCall, run: Run): Promise<Served> {
  const settlement = await settle(c, call);
  if (settlement.outcome === "unknown") {
    return { outcome: "unknown", response: errorResponse(c, settlement.error) };
  }
  const response = await run();
  response.headers.set(PAYMENT_RESPONSE_HEADER, settlement.receipt);
  if (response.status < 400) return { outcome: "served", response };
  // Paid, then failed: the price goes to the payer's credit, for its next paid call.
  const { atomic } = call.resource.price;
  await c
    .get("metering")
    .wallet(call.payment.payer)
    .addCredit(Number(atomic))
    .then(() => response.headers.set(PAYMENT_CREDITED_HEADER, atomic))
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not credit a failed paid call`, err),
    );
  return { outcome: "credited", response };
}

/**
 * Claims the payment's nonce, verifies and settles (module comment). A refusal throws and
 * releases the nonce; an unknown outcome keeps it.
 */
async function settle(c: AppContext, call: PaidCall): Promise<Settlement> {
  const { payment, requirement, server, refuse } = call;
  const timings = c.get("timings");
  const meter = c.get("metering").wallet(payment.payer);
  const now = Math.floor(Date.now() / 1000);
  const { expiresAt } = payment;
  const remembered = BigInt(now + NONCE_MEMORY_SECONDS);
  const until = Number(expiresAt < remembered ? expiresAt : remembered);
  const claim = await timings.measure("x402-nonce", () =>
    meter.claimPayment(payment.nonceKey, until, now),
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
    // Best effort: a nonce left 'pending' refuses replays just the same.
    await meter
      .settlePayment(payment.nonceKey)
      .catch((err: unknown) =>
        logError(`[${c.get("requestId")}] could not record a settled payment`, err),
      );
    return { outcome: "settled", receipt };
  } finally {
    if (!keepNonce) {
      await meter
        .releasePayment(payment.nonceKey)
        .catch((err: unknown) =>
          logError(`[${c.get("requestId")}] could not release a payment nonce`, err),
        );
    }
  }
}
