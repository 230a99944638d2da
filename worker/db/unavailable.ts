import { ApiError } from "../errors";

/**
 * Whether a failure means the database could not be reached or could not take the work
 * right now (down, restarting, out of connections, too slow), rather than a bug. Clients
 * retry a 503 with Retry-After; a 500 says "our fault" and is not retried by all of them.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (unavailableCode(current) || UNAVAILABLE_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return isSocketEvent(current);
}

/**
 * A DOM event where an error should be: the driver passes on its WebSocket's "error" or
 * "close" event as the failure when the connection drops mid-query (drizzle then wraps it as
 * the cause of "Failed query"). It was answered 500 under load, with the database healthy.
 */
function isSocketEvent(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !(value instanceof Error) &&
    "type" in value &&
    (value.type === "error" || value.type === "close")
  );
}

/** Seconds a client should wait before retrying. */
export const RETRY_AFTER_SECONDS = 5;

export const databaseUnavailable = () =>
  new ApiError("SERVICE_UNAVAILABLE", "The database is unavailable; retry shortly", undefined, {
    "retry-after": String(RETRY_AFTER_SECONDS),
  });

/**
 * SQLSTATE classes 08 (connection exception) and 53 (insufficient resources: too many
 * connections, out of memory or disk), 57P01-57P05 (shutting down, starting up, idle
 * session terminated), 55P03 (lock not available: the embedded database's queue timed out);
 * and Node socket errors.
 */
function unavailableCode(err: Error): boolean {
  const code = "code" in err && typeof err.code === "string" ? err.code : "";
  return (
    /^(08|53)[0-9A-Z]{3}$/.test(code) ||
    /^57P0[1-5]$/.test(code) ||
    code === "55P03" ||
    /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/.test(code)
  );
}

/**
 * What the driver (@neondatabase/serverless, a pg fork) and workerd say when a connection
 * fails, drops or times out. They carry no SQLSTATE.
 */
const UNAVAILABLE_MESSAGE =
  /connection terminated|connection error|not queryable|timeout exceeded when trying to connect|query read timeout|websocket|socket hang up|network connection lost/i;
