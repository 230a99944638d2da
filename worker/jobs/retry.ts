/**
 * What a failed attempt means for a job: retried later (the cause may go away) or failed now.
 *
 * Retryable: errors of 5xx class (BAD_GATEWAY is a provider that still failed after its own
 * in-request retries on 429, 5xx, timeouts and network errors; INTERNAL_ERROR) and anything
 * that is not an ApiError (a dropped database connection, a driver error). Not retryable:
 * 4xx ApiErrors (input that no longer validates, something not found), which would fail the
 * same way every time.
 */
import { databaseUnavailable, isDatabaseUnavailable } from "../db/unavailable";
import { ApiError, type ErrorCode } from "../errors";

/** The job's `error`: the API error body's code and message, never an internal cause. */
export interface JobError {
  code: ErrorCode;
  message: string;
}

/** First retry delay; each later one doubles, up to BACKOFF_MAX_SECONDS. */
export const BACKOFF_BASE_SECONDS = 5;
export const BACKOFF_MAX_SECONDS = 600;

/** Delay before the next delivery after delivery number `attempts` (1 = the first) failed. */
export function backoffSeconds(attempts: number): number {
  const exponent = Math.max(0, Math.floor(attempts) - 1);
  return Math.min(BACKOFF_BASE_SECONDS * 2 ** exponent, BACKOFF_MAX_SECONDS);
}

export function isRetryable(err: unknown): boolean {
  return err instanceof ApiError ? err.status >= 500 : true;
}

export function jobErrorOf(err: unknown): JobError {
  const known =
    err instanceof ApiError ? err : isDatabaseUnavailable(err) ? databaseUnavailable() : undefined;
  if (known) return { code: known.code, message: known.message };
  return { code: "INTERNAL_ERROR", message: "Internal server error" };
}
