import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The error codes clients switch on (clients.md), each with its one HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 422,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The one error type of the service. Domain functions throw it; the app's onError turns it
 * into `{error: {code, message, details?, request_id}}`. Anything else thrown is logged and
 * answered as a bare INTERNAL_ERROR, so no SQL or stack ever reaches a client.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  /** Response headers that belong to the error, e.g. Retry-After on a 429. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    details?: unknown,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = "Memory") => new ApiError("NOT_FOUND", `${what} not found`);
export const immutableConflict = () =>
  new ApiError("CONFLICT", "Memory is immutable and cannot be updated or deleted");

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown; request_id: string };
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.details === undefined ? {} : { details: err.details }),
      request_id: requestId,
    },
  };
}
