/** Test helpers for time windows and bounded concurrency (rate limits, free allowance). */
import { vi } from "vitest";

/**
 * Freezes Date (only Date: timers and I/O run normally) at `offsetMs` into the next minute, so
 * a test sits in one known rate-limit window. Returns the frozen time and the window's end
 * (unix seconds). Undo with vi.useRealTimers() (in afterEach).
 */
export function freezeClock(offsetMs = 10_000): { start: number; resetAt: number } {
  const minute = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
  vi.useFakeTimers({ toFake: ["Date"], now: minute + offsetMs });
  return { start: minute + offsetMs, resetAt: minute / 1000 + 60 };
}

/**
 * Runs the calls with at most `inFlight` under way at any moment. The Meter sees them
 * interleaved just the same; the bound is for the suite's local Postgres, which takes 32
 * connections in all (each served request opens its own).
 */
export async function concurrently<T>(calls: Array<() => Promise<T>>, inFlight = 12): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < calls.length; i = next++) {
      const call = calls[i];
      if (call) results[i] = await call();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return results;
}
