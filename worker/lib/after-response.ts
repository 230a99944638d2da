import type { Context } from "hono";
import { logError } from "./log";

/**
 * Lets work finish after the response is sent (Workers `waitUntil`). Where there is no
 * execution context (plain Node, some tests) the work is awaited instead, so it is never
 * dropped. Failures are logged, never thrown into the response.
 */
export async function afterResponse(
  c: Context,
  work: Promise<unknown>,
  what: string,
): Promise<void> {
  const guarded = work.then(
    () => undefined,
    (err) => logError(`${what} failed`, err),
  );
  let waitUntil: ((p: Promise<unknown>) => void) | undefined;
  try {
    const ctx = c.executionCtx;
    waitUntil = (p) => ctx.waitUntil(p);
  } catch {
    waitUntil = undefined;
  }
  if (waitUntil) waitUntil(guarded);
  else await guarded;
}
