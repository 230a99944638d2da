/**
 * What the Worker logs during a test. The Worker runs in the test's isolate (SELF, or
 * workerWith), so the console methods it calls are the ones spied on here.
 */
import { expect, onTestFinished, vi } from "vitest";
import type { RequestLine } from "../worker/middleware/request-log";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;

export interface ConsoleCall {
  method: (typeof METHODS)[number];
  args: unknown[];
}

/**
 * Silences the console and records its calls until the test ends (then the console is given
 * back); answers them so far.
 */
export function captureConsole(): () => ConsoleCall[] {
  const spied = METHODS.map((method) => ({
    method,
    spy: vi.spyOn(console, method).mockImplementation(() => {}),
  }));
  onTestFinished(() => {
    for (const { spy } of spied) spy.mockRestore();
  });
  return () => spied.flatMap(({ method, spy }) => spy.mock.calls.map((args) => ({ method, args })));
}

/** Every argument of every call as text, objects as JSON: what a secret must not be in. */
export const textOf = (calls: ConsoleCall[]): string =>
  calls
    .map(({ args }) =>
      args
        .map((a) =>
          a instanceof Error
            ? `${a.stack} ${a.message}`
            : typeof a === "string"
              ? a
              : JSON.stringify(a),
        )
        .join(" "),
    )
    .join("\n");

/** The fields of a request line (worker/middleware/request-log.ts), required and optional. */
const FIELDS = [
  "event",
  "request_id",
  "route",
  "method",
  "status",
  "duration_ms",
  "auth",
  "wallet",
  "payment",
];
const ALL_FIELDS = [...FIELDS, "reason", "inner"];

/**
 * The request lines among `calls`, each checked to be one console.log argument that is JSON
 * as it is (an object whose JSON form reads back equal) with the request line's fields.
 */
export function requestLines(calls: ConsoleCall[]): RequestLine[] {
  const lines = calls.filter(
    ({ args }) =>
      typeof args[0] === "object" &&
      args[0] !== null &&
      (args[0] as { event?: unknown }).event === "request",
  );
  for (const { method, args } of lines) {
    expect(method).toBe("log");
    expect(args).toHaveLength(1);
    const [line] = args;
    expect(JSON.parse(JSON.stringify(line))).toEqual(line);
    const keys = Object.keys(line as object);
    for (const field of FIELDS) expect(keys, field).toContain(field);
    for (const key of keys) expect(ALL_FIELDS, key).toContain(key);
  }
  return lines.map(({ args }) => args[0] as RequestLine);
}

/** The line of the request whose response carried `requestId` (its x-request-id). */
export function lineOf(lines: RequestLine[], requestId: string | null): RequestLine {
  const line = lines.find((l) => l.request_id === requestId);
  if (!line) throw new Error(`no request line for ${requestId}`);
  return line;
}

/** A wallet's tag as docs/operations.md tells an operator to compute it. */
export async function expectedTag(address: string): Promise<string> {
  const text = `memory-service wallet tag v1:${address.toLowerCase()}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, 16);
}
