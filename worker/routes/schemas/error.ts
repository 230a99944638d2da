import { z } from "@hono/zod-openapi";
import { ERROR_STATUS, type ErrorCode } from "../../errors";

const CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The one error body (worker/errors.ts errorBody), for every error status of every operation. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(CODES),
      message: z.string(),
      details: z.unknown().optional().openapi({
        description:
          "For 422 `{issues: [{path, message}]}`; for 429 `{limit, reset_at}`; for 402 `{price, reason?}`",
      }),
      request_id: z.string(),
    }),
  })
  .openapi("Error");

const errorResponse = (description: string, headers?: Record<string, z.ZodType>) => ({
  description,
  content: { "application/json": { schema: ErrorBody } },
  ...(headers ? { headers: z.object(headers) } : {}),
});

/**
 * Every error status an operation can answer with, and why. Operations name the ones that
 * belong to them (404, 409); operation.ts adds the ones every operation of a kind shares.
 */
export const ERRORS = {
  401: errorResponse("No wallet identity, or an invalid signature, token or payment proof"),
  402: errorResponse(
    "Free allowance used: pay with x402 v2. The `PAYMENT-REQUIRED` header holds the base64 PaymentRequired object (`accepts`: scheme `exact`, USDC, amount in atomic units; `extensions`: `bazaar`, `payment-identifier`, `sign-in-with-x`); retry with `PAYMENT-SIGNATURE`.",
    {
      "PAYMENT-REQUIRED": z
        .string()
        .openapi({ description: "base64 of the x402 v2 PaymentRequired object" }),
    },
  ),
  403: errorResponse(
    "With `owner`: the grant on the namespace is read-only, or no grant opens this operation",
  ),
  404: errorResponse("Not found, deleted, expired, or another wallet's"),
  409: errorResponse("The memory is immutable"),
  410: errorResponse(
    "The cursor is older than the events kept: `details.oldest_cursor`; read the state again, then follow from `since=now`",
  ),
  413: errorResponse("Request body over 8 MiB"),
  422: errorResponse("Invalid input: `details.issues` names each failing field"),
  429: errorResponse("Rate limit exceeded", {
    "Retry-After": z.string().openapi({ description: "seconds until the window resets" }),
  }),
  502: errorResponse("The payment facilitator or language-model provider could not be reached"),
  503: errorResponse("The database is unavailable; retry after `Retry-After` seconds", {
    "Retry-After": z.string(),
  }),
} as const;

/** Why a paid operation may answer 409 (worker/payment/payment-id.ts). */
const PAYMENT_ID_CONFLICT =
  "The x402 payment identifier was used for another request, or its first request is still being served (`details.reason`: `identifier_reused`, `in_progress`, `answer_not_kept`)";

/** The 409 of a paid operation: its own reason (if it has one) and the payment identifier's. */
export function paidConflict(own?: { description: string }) {
  return errorResponse(
    own ? `${own.description}; or: ${PAYMENT_ID_CONFLICT}` : PAYMENT_ID_CONFLICT,
  );
}

export type ErrorStatus = keyof typeof ERRORS;
