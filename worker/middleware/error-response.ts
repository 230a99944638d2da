/**
 * The one way a thrown error becomes a response: `{error: {code, message, details?,
 * request_id}}` with its status and headers. The app's onError uses it, and so does the charge
 * point of a paid operation (charge.ts), which must see a failed handler's answer to give its
 * charge back. Internal causes go to the log, never into the body.
 */
import { HTTPException } from "hono/http-exception";
import { databaseUnavailable, isDatabaseUnavailable } from "../db/unavailable";
import { ApiError, errorBody } from "../errors";
import { logError } from "../lib/log";
import type { AppContext } from "./app-env";

export function errorResponse(c: AppContext, err: unknown): Response {
  const requestId = c.get("requestId") ?? crypto.randomUUID();
  let apiError: ApiError;
  if (err instanceof ApiError) {
    apiError = err;
  } else if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx (e.g. its body parser): the spec answers bad input with 422.
    apiError = new ApiError("VALIDATION_ERROR", err.message || "Invalid request");
  } else if (isDatabaseUnavailable(err)) {
    apiError = databaseUnavailable();
  } else {
    apiError = new ApiError("INTERNAL_ERROR", "Internal server error");
  }
  if (apiError.status >= 500) logError(`[${requestId}] ${c.req.method} ${c.req.routePath}`, err);
  return c.json(errorBody(apiError, requestId), apiError.status, apiError.headers);
}
