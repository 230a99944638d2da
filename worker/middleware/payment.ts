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
 * client may send the same authorization again.
 *
 * A settlement that does not say "settled" is a refusal only when it provably sent nothing.
 * Otherwise (the facilitator said `settlement_pending`, timed out, failed after sending, or
 * could not be reached mid-settlement) its outcome is unknown, and the chain is asked
 * (payment/outcome.ts): paid, the call is served; refused, the nonce is released and the
 * answer is a 402; still unknown at the deadline, the answer is a 502 that says so, the nonce
 * stays taken, and the payer's Meter checks the chain in the background and credits the price
 * when the transfer confirms (meter/unsettled.ts). No paid call waits for its settlement longer
 * than SETTLEMENT_BOUND_MS.
 *
 * Payment identifiers (payment/payment-id.ts), claimed atomically in the payer's Meter: a new
 * one runs the request and keeps its answer once it was served and paid (or the settlement's
 * outcome is unknown); the same request again gets that answer back without paying; another
 * request with it is a 409, and so is a duplicate that arrives while the first is still
 * running. A request given up unpaid, or failed and credited, frees its identifier for a
 * retry (which its credit then pays for). The retry of an unknown outcome learns it
 * (payment-unsettled.ts): served once the chain shows the payment made, a 402 once its
 * authorization expired unused, else the same 502.
 */
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { SettleError, SettleResponse } from "@x402/core/types";
import { ApiError } from "../errors";
import { logError } from "../lib/log";
import { bindingProblem } from "../payment/binding";
import { authorizationOf } from "../payment/chain-state";
import type { SendLedger } from "../payment/in-process-facilitator";
import { findOut } from "../payment/outcome";
import { decodePayment, verifyPayer } from "../payment/payload";
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
import { type PaidCall, type Run, runPaid, type Served } from "./paid-call";
import { PAYMENT_UNSETTLED_HEADER, retryUnsettled, unsettledAnswer } from "./payment-unsettled";

/** How long the service remembers a payment nonce at most (see Meter.claimPayment). */
const NONCE_MEMORY_SECONDS = 24 * 60 * 60;

/**
 * The longest a paid call waits for its payment (docs/payments.md): verification and
 * settlement may run until SETTLE_DEADLINE_MS after the call began, the in-process
 * facilitator's receipt wait included; a remote facilitator is given up on REMOTE_SETTLE_MS
 * after; the chain is asked until SETTLEMENT_BOUND_MS. Past it the outcome is unknown (502).
 */
const SETTLE_DEADLINE_MS = 9_000;
const REMOTE_SETTLE_MS = 10_000;
export const SETTLEMENT_BOUND_MS = 13_000;

function facilitatorError(c: AppContext, what: string, err: unknown): ApiError {
  logError(`[${c.get("requestId")}] x402 facilitator: ${what} failed`, err);
  return new ApiError("BAD_GATEWAY", `Payment facilitator unavailable: could not ${what}`);
}

/** How a settlement ended: settled (with its receipt), or unknown (nothing was served). */
type Settlement = { outcome: "settled"; receipt: string } | { outcome: "unknown"; error: ApiError };

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
  const startedMs = Date.now();
  const ledger: SendLedger = { attempted: false, sent: [] };

  const decoded = decodePayment(header);
  if (!decoded.ok) throw await refuse(decoded.reason);
  const { payment } = decoded;
  const unbound = bindingProblem(c.req.raw, c.get("caller").wallet, payment);
  if (unbound) throw await refuse(unbound);
  const server = await c
    .get("timings")
    .measure("x402-init", () =>
      resourceServer(settings, facilitator, { deadlineMs: startedMs + SETTLE_DEADLINE_MS, ledger }),
    )
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
  const call: PaidCall = {
    payment,
    requirement,
    resource,
    settings,
    server,
    refuse,
    startedMs,
    ledger,
  };
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
  if (claim.outcome === "replay") {
    c.set("payment", "replayed");
    const unsettled = claim.response.headers[PAYMENT_UNSETTLED_HEADER];
    if (!unsettled) return replayOf(id, claim.response);
    return retryUnsettled(c, call, { id, nonce: unsettled, stored: claim.response }, run);
  }

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
    c.set("payment", "unknown-outcome");
    return { outcome: "unknown", response: errorResponse(c, settlement.error) };
  }
  return runPaid(c, call, run, settlement.receipt);
}

/** `work`, or `undefined` once `ms` have passed (the work goes on, unawaited). */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const isSettleError = (err: unknown): err is SettleError =>
  err instanceof Error && err.name === "SettleError";

/** How the facilitator's settle call ended: its answer, or none (it failed or timed out). */
type Attempt =
  | { response: SettleResponse }
  | { response?: undefined; cause: unknown; timedOut?: true };

/**
 * Claims the payment's nonce, verifies and settles (module comment). A refusal throws and
 * releases the nonce; a payment the chain shows made is settled; an outcome still unknown at
 * the bound keeps the nonce, and the payment goes to the Meter's background check.
 */
async function settle(c: AppContext, call: PaidCall): Promise<Settlement> {
  const { payment, requirement, server, refuse, startedMs } = call;
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
      .measure("x402-verify", () =>
        within(
          server.verifyPayment(payment.payload, requirement),
          startedMs + SETTLE_DEADLINE_MS - Date.now(),
        ),
      )
      .catch((err: unknown) => {
        throw facilitatorError(c, "verify the payment", err);
      });
    if (!verified) throw facilitatorError(c, "verify the payment", "timed out");
    if (!verified.isValid) {
      throw await refuse(verified.invalidReason ?? "invalid payment", {
        detail: verified.invalidMessage,
      });
    }
    const attempt: Attempt = await timings.measure("x402-settle", () =>
      within(
        server.settlePayment(payment.payload, requirement),
        startedMs + REMOTE_SETTLE_MS - Date.now(),
      ).then(
        (response): Attempt => (response ? { response } : { cause: "timed out", timedOut: true }),
        // A facilitator's non-2xx answer carrying a settle response is that answer (found by
        // name: a bundler may hold two copies of x402's classes).
        (cause: unknown): Attempt =>
          isSettleError(cause)
            ? {
                response: {
                  success: false,
                  errorReason: cause.errorReason,
                  errorMessage: cause.errorMessage,
                  transaction: cause.transaction,
                  network: cause.network,
                },
              }
            : { cause },
      ),
    );
    const settled = attempt.response;
    if (settled?.success) {
      keepNonce = true;
      await recordSettled(c, meter, payment.nonceKey);
      return { outcome: "settled", receipt: encodePaymentResponseHeader(settled) };
    }
    const reason = settled?.errorReason ?? "the facilitator did not answer";
    if (sentNothing(call, attempt)) {
      throw await refuse(`settlement failed: ${reason}`, {
        detail: settled?.errorMessage,
        ...(settled
          ? { headers: { [PAYMENT_RESPONSE_HEADER]: encodePaymentResponseHeader(settled) } }
          : {}),
      });
    }
    // Its outcome is unknown: the nonce stays taken until the chain tells.
    keepNonce = true;
    if (!settled)
      logError(`[${c.get("requestId")}] x402 facilitator: settle failed`, attempt.cause);
    const transaction = settled?.transaction || call.ledger.sent.at(-1);
    const found = await timings.measure("x402-find-out", () =>
      findOut(
        call.settings.rpcUrl,
        authorizationOf(payment),
        transaction,
        startedMs + SETTLEMENT_BOUND_MS,
      ),
    );
    if (found.outcome === "paid") {
      await recordSettled(c, meter, payment.nonceKey);
      const receipt = encodePaymentResponseHeader({
        success: true,
        transaction: found.transaction ?? "",
        network: requirement.network,
        payer: payment.payer,
      });
      return { outcome: "settled", receipt };
    }
    if (found.outcome === "refused") {
      keepNonce = false;
      throw await refuse(`settlement failed: ${reason}`, { detail: settled?.errorMessage });
    }
    return { outcome: "unknown", error: await unsettledAnswer(c, call, reason, found.transaction) };
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

/**
 * Whether a settlement that did not succeed provably moved nothing: the in-process facilitator
 * never tried to send, or a remote one answered a refusal that names no transaction.
 */
function sentNothing(call: PaidCall, attempt: Attempt): boolean {
  // Timed out, it may still send: only a settlement that has ended can prove it sent nothing.
  if (call.settings.facilitator?.kind === "in-process") {
    return !call.ledger.attempted && !("timedOut" in attempt);
  }
  const answer = attempt.response;
  return answer !== undefined && answer.errorReason !== "settlement_pending" && !answer.transaction;
}

/** Best effort: a nonce left 'pending' refuses replays just the same. */
async function recordSettled(c: AppContext, meter: WalletMeter, nonceKey: string) {
  await meter
    .settlePayment(nonceKey)
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not record a settled payment`, err),
    );
}
