/**
 * The one way the Worker logs a failure. A log line keeps what an operator needs (where it
 * happened, error codes, SQLSTATE and constraint names, request and job ids) and never what a
 * user sent or stored: a failed query's message carries its SQL and every parameter (memory
 * content, metadata, wallet addresses), and a Postgres error's message and detail quote values
 * ("Key (content_hash)=(…)"), so neither is logged. Long hex strings (wallet addresses,
 * signatures, hashes) are shortened wherever they appear.
 *
 * Lines are objects, not text: Workers Logs indexes an object's fields, so `event`,
 * `request_id` and `where` can be filtered on (docs/operations.md); a string, even one holding
 * JSON, is only searchable as text.
 */
import { DrizzleQueryError } from "drizzle-orm";
import { isDatabaseUnavailable } from "../db/unavailable";
import { ApiError } from "../errors";
import { sha256Hex } from "./hash";

/** A failure's log line (`event: "error"`; docs/operations.md). */
export interface ErrorLine {
  event: "error";
  request_id?: string;
  where: string;
  /** The error and its causes, described without user data (describeFailure). */
  error?: string;
  /** Stack frames: file and function names only. */
  stack?: string[];
}

export function logError(where: string, err?: unknown): void {
  if (err !== undefined && isDatabaseUnavailable(err)) {
    logOutage(where, err);
    return;
  }
  const line: ErrorLine = { event: "error", ...placeOf(where) };
  if (err !== undefined) {
    line.error = describeCauses(err);
    const stack = frames(err);
    if (stack.length > 0) line.stack = stack;
  }
  console.error(line);
}

/**
 * Where a failure happened, with the request id that callers put first (`[<id>] …`) as a
 * field of its own, so that the failure and its request's line (request-log.ts) join on it.
 */
function placeOf(where: string): { request_id?: string; where: string } {
  const tagged = /^\[([\w-]+)\] (.*)$/s.exec(where);
  return tagged?.[1] && tagged[2] !== undefined
    ? { request_id: tagged[1], where: redact(tagged[2]) }
    : { where: redact(where) };
}

/**
 * A wallet as log lines name it: the first 16 hex digits of the SHA-256 of a fixed label and
 * the lower-case address. The same wallet has the same tag in every line, so its requests can
 * be followed, and an operator who has an address computes its tag (docs/operations.md); the
 * address itself is never logged. Addresses are public, so the tag hides a wallet from a
 * reader who does not know the address, not from one who tries a known address.
 */
export const WALLET_TAG_LABEL = "memory-service wallet tag v1:";

export async function walletTag(wallet: string): Promise<string> {
  return (await sha256Hex(WALLET_TAG_LABEL + wallet.toLowerCase())).slice(0, 16);
}

/**
 * An unavailable database is an operational state, not a bug: every request answers 503
 * while it lasts, so a line and a stack per request would say the same thing hundreds of
 * times a second. Such failures get one line, without stack frames, at most every
 * OUTAGE_LOG_INTERVAL_MS per isolate, counting the ones it stands for.
 *
 * Measured under `wrangler dev`: with a stack per failed request, the dev server's Node
 * process (which source-maps every logged stack) fell behind, workerd blocked writing to its
 * full stdout pipe, and every request in the isolate froze for 4-12 s; wrangler then answered
 * the requests it was proxying with a plain-text 503 "Your worker restarted mid-request".
 */
const OUTAGE_LOG_INTERVAL_MS = 5_000;

/** An outage's log line (`event: "database_unavailable"`; docs/operations.md). */
export interface OutageLine {
  event: "database_unavailable";
  request_id?: string;
  where: string;
  error: string;
  /** Failures like it since the last such line, which got no line of their own. */
  more_failures?: number;
  /** Seconds since the last such line. */
  over_seconds?: number;
}

let outageLoggedAt = Number.NEGATIVE_INFINITY;
let outageSuppressed = 0;

function logOutage(where: string, err: unknown): void {
  const now = Date.now();
  if (now - outageLoggedAt < OUTAGE_LOG_INTERVAL_MS) {
    outageSuppressed += 1;
    return;
  }
  const line: OutageLine = {
    event: "database_unavailable",
    ...placeOf(where),
    error: describeCauses(err),
  };
  if (outageSuppressed > 0) {
    line.more_failures = outageSuppressed;
    line.over_seconds = Math.round((now - outageLoggedAt) / 1000);
  }
  outageLoggedAt = now;
  outageSuppressed = 0;
  console.warn(line);
}

/** Postgres error fields that name things (SQLSTATE, objects, the C routine), not values. */
const NAMING_FIELDS = ["constraint", "table", "column", "dataType", "routine"] as const;
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Stack frames kept: enough to find the code, and they hold only file and function names. */
const MAX_FRAMES = 8;
/** Causes followed: a failed query wraps the Postgres error, which may wrap a socket error. */
const MAX_CAUSES = 4;

/** One line (plus stack frames) describing an error and its causes without user data. */
export function describeFailure(err: unknown): string {
  return [describeCauses(err), ...frames(err)].join("\n");
}

function describeCauses(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let i = 0; i < MAX_CAUSES && current !== undefined && current !== null; i++) {
    parts.push(describeOne(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(" <- caused by ");
}

function describeOne(err: unknown): string {
  // A thrown non-Error can be anything, including a request body.
  if (!(err instanceof Error)) return `non-error value (${typeof err})`;
  if (err instanceof ApiError) return `${err.code}: ${redact(err.message)}`;
  if (err instanceof DrizzleQueryError) return "query failed";
  const code = "code" in err && typeof err.code === "string" ? err.code : undefined;
  if (code !== undefined && SQLSTATE.test(code)) {
    const names = NAMING_FIELDS.flatMap((field) => {
      const value = (err as unknown as Record<string, unknown>)[field];
      return typeof value === "string" && value !== "" ? [`${field}=${value}`] : [];
    });
    return [`database error SQLSTATE ${code}`, ...names].join(" ");
  }
  // V8 quotes the text it could not parse in a SyntaxError's message.
  if (err instanceof SyntaxError) return err.name;
  const message = redact(err.message).slice(0, 200);
  return code === undefined ? `${err.name}: ${message}` : `${err.name} ${code}: ${message}`;
}

/** The stack's frames only (its first lines repeat the message), each `at …`. */
function frames(err: unknown): string[] {
  if (!(err instanceof Error) || err.stack === undefined) return [];
  return err.stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES)
    .map((line) => redact(line.trim()));
}

const LONG_HEX = /\b(0x)?([0-9a-fA-F]{4})[0-9a-fA-F]{32,}([0-9a-fA-F]{4})\b/g;

/** Wallet addresses, signatures and hashes shortened to `0x1234…abcd`. */
export const redact = (text: string) => text.replace(LONG_HEX, "$1$2…$3");
