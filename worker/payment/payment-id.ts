/**
 * The x402 `payment-identifier` extension (specs/extensions/payment_identifier.md) as an
 * idempotency key: a paid request whose payment carries `extensions["payment-identifier"]
 * .info.id` is answered once; a retry of the same request with the same id gets that answer
 * again and pays nothing more; the id sent with another request is a 409. The id is read with
 * @x402/extensions' helpers (without its schema check, which compiles code at run time and
 * cannot run in Workers); what "the same request" means and what is kept is decided here.
 */
import type { PaymentPayload } from "@x402/core/types";
import {
  extractPaymentIdentifier,
  isValidPaymentId,
  PAYMENT_ID_MAX_LENGTH,
  PAYMENT_ID_MIN_LENGTH,
} from "@x402/extensions/payment-identifier";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/hash";
import type { StoredResponse } from "../meter/payment-ids";
import { PAYMENT_RESPONSE_HEADER, PAYMENT_UNSETTLED_HEADER } from "./required";

/** How long an answer is kept for retries (from when it was sent). */
export const PAYMENT_ID_MEMORY_SECONDS = 60 * 60;
/**
 * How long a request may hold an identifier before it counts as abandoned: longer than a
 * payment authorization lives (300 s), so a request still running cannot settle after it.
 */
export const PAYMENT_ID_LEASE_SECONDS = 10 * 60;
/** Largest answer body kept (UTF-8 bytes); a larger one is not sent again (see replay). */
export const PAYMENT_ID_MAX_BODY_BYTES = 64 * 1024;

export type PaymentIdResult = { ok: true; id: string | null } | { ok: false; reason: string };

/** The payment's identifier: null when it carries none, refused when it is malformed. */
export function paymentIdOf(payload: PaymentPayload): PaymentIdResult {
  const id = extractPaymentIdentifier(payload, false);
  if (id === null || isValidPaymentId(id)) return { ok: true, id };
  return {
    ok: false,
    reason: `payment-identifier id must be ${PAYMENT_ID_MIN_LENGTH}-${PAYMENT_ID_MAX_LENGTH} characters of A-Z, a-z, 0-9, _ and -`,
  };
}

/**
 * What makes two requests "the same" for one identifier: the caller (so that no other wallet
 * can read an answer), the method, the path with its query, and the body bytes.
 */
export function requestFingerprint(
  caller: string,
  request: Request,
  body: string,
): Promise<string> {
  const url = new URL(request.url);
  return sha256Hex(JSON.stringify([caller, request.method, url.pathname + url.search, body]));
}

/**
 * The answer to keep for `response` (its body unless too large), its receipt, and the nonce
 * of a payment whose outcome was unknown.
 */
export async function storedResponseOf(response: Response): Promise<StoredResponse> {
  const text = await response.clone().text();
  const size = new TextEncoder().encode(text).byteLength;
  const headers: Record<string, string> = {
    "content-type": response.headers.get("content-type") ?? "application/json",
  };
  for (const name of [PAYMENT_RESPONSE_HEADER, PAYMENT_UNSETTLED_HEADER]) {
    const value = response.headers.get(name);
    if (value) headers[name] = value;
  }
  return {
    status: response.status,
    body: size <= PAYMENT_ID_MAX_BODY_BYTES ? text : null,
    headers,
  };
}

/** The kept answer, sent again; a 409 that says so when its body was too large to keep. */
export function replayOf(id: string, stored: StoredResponse): Response {
  if (stored.body === null) {
    throw new ApiError(
      "CONFLICT",
      `The request with this payment identifier was served and paid for; its answer was larger than ${PAYMENT_ID_MAX_BODY_BYTES} bytes and is not kept`,
      { payment_identifier: id, reason: "answer_not_kept", status: stored.status },
      stored.headers,
    );
  }
  return new Response(stored.body, { status: stored.status, headers: stored.headers });
}

export const paymentIdConflict = (id: string) =>
  new ApiError("CONFLICT", "This payment identifier was already used for another request", {
    payment_identifier: id,
    reason: "identifier_reused",
  });

/** A duplicate racing the first request: refused rather than waited for (docs/payments.md). */
export const paymentIdInProgress = (id: string) =>
  new ApiError(
    "CONFLICT",
    "A request with this payment identifier is still being served: retry when it has finished to get its answer",
    { payment_identifier: id, reason: "in_progress" },
    { "Retry-After": "1" },
  );
