/**
 * The one way the Worker logs a failure. A log line keeps what an operator needs (where it
 * happened, error codes, SQLSTATE and constraint names, request and job ids) and never what a
 * user sent or stored: a failed query's message carries its SQL and every parameter (memory
 * content, metadata, wallet addresses), and a Postgres error's message and detail quote values
 * ("Key (content_hash)=(…)"), so neither is logged. Long hex strings (wallet addresses,
 * signatures, hashes) are shortened wherever they appear.
 */
import { DrizzleQueryError } from "drizzle-orm";
import { ApiError } from "../errors";

export function logError(where: string, err?: unknown): void {
  console.error(err === undefined ? redact(where) : `${redact(where)}: ${describeFailure(err)}`);
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
  const parts: string[] = [];
  let current: unknown = err;
  for (let i = 0; i < MAX_CAUSES && current !== undefined && current !== null; i++) {
    parts.push(describeOne(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(" <- caused by ") + frames(err);
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

/** The stack's frames only: its first lines repeat the message. */
function frames(err: unknown): string {
  if (!(err instanceof Error) || err.stack === undefined) return "";
  const lines = err.stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES);
  return lines.length > 0 ? `\n${lines.map((line) => redact(line)).join("\n")}` : "";
}

const LONG_HEX = /\b(0x)?([0-9a-fA-F]{4})[0-9a-fA-F]{32,}([0-9a-fA-F]{4})\b/g;

/** Wallet addresses, signatures and hashes shortened to `0x1234…abcd`. */
export const redact = (text: string) => text.replace(LONG_HEX, "$1$2…$3");
