/**
 * Rate limits as plain functions: which buckets a request counts in, and the decision for
 * one hit given the stored counts. The Meter Durable Object only reads and writes the counts.
 *
 * Windows are FIXED and aligned to the epoch: the window of a hit at `nowMs` starts at
 * `floor(nowMs / (windowSeconds * 1000)) * windowSeconds` (unix seconds), so with 60 s every
 * window is one calendar minute and resets at the next full minute. A burst straddling a
 * minute boundary can therefore see up to twice the limit within 60 s; that is the usual
 * price of fixed windows, accepted for their one-row-per-bucket storage.
 */

export const WINDOW_SECONDS = 60;
/** Spec "Limits": every request of a wallet (or anonymous IP). */
export const RATE_LIMIT_PER_MINUTE = 100;
/** Spec "Limits": extract and consolidate, counted in addition to the "all" bucket. */
export const LLM_RATE_LIMIT_PER_MINUTE = 10;

export interface BucketLimit {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface HitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the reported bucket's window ends. */
  resetAt: number;
}

/** A bucket's stored count and the window it belongs to. */
export interface WindowCount {
  bucket: string;
  windowStart: number;
  count: number;
}

/**
 * Rate-limit buckets beyond "all", as operations declare them (worker/routes/operation.ts):
 * "llm" for extract and consolidate.
 */
export type ExtraBucket = "llm";

/** The buckets a request counts in: "all" always, plus the operation's own, if it has one. */
export function limitsFor(extra?: ExtraBucket): BucketLimit[] {
  const all = { bucket: "all", limit: RATE_LIMIT_PER_MINUTE, windowSeconds: WINDOW_SECONDS };
  if (extra !== "llm") return [all];
  return [all, { bucket: "llm", limit: LLM_RATE_LIMIT_PER_MINUTE, windowSeconds: WINDOW_SECONDS }];
}

/**
 * The operator's cap on free calls taken from one client IP a day (FREE_CALLS_PER_IP_PER_DAY),
 * counted in that IP's Meter: a bucket with a fixed one-day window, like the minute buckets.
 */
export const FREE_PER_IP_BUCKET = "free-per-ip";
export const DAY_SECONDS = 24 * 60 * 60;
export const freePerIpLimit = (cap: number): BucketLimit => ({
  bucket: FREE_PER_IP_BUCKET,
  limit: cap,
  windowSeconds: DAY_SECONDS,
});

/** Start, in unix seconds, of the fixed window holding `nowMs`. */
export function windowStartOf(nowMs: number, windowSeconds: number): number {
  return Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds;
}

/**
 * One hit of `count` requests against every bucket in `limits`, all or nothing: it is allowed
 * only when every bucket has room for all of them, and only then is every bucket counted
 * (`updates`). A refused hit consumes
 * nothing anywhere, so a client that waits for the reset loses no quota to its refusals.
 *
 * Reported numbers: when refused, the first bucket that refused; when allowed, the bucket
 * with the fewest requests left (the first on a tie, i.e. "all").
 */
export function evaluateHit(
  limits: readonly BucketLimit[],
  stored: ReadonlyMap<string, WindowCount>,
  nowMs: number,
  count = 1,
): { result: HitResult; updates: WindowCount[] } {
  const states = limits.map((l) => {
    const windowStart = windowStartOf(nowMs, l.windowSeconds);
    const row = stored.get(l.bucket);
    const used = row && row.windowStart === windowStart ? row.count : 0;
    return { ...l, windowStart, used, resetAt: windowStart + l.windowSeconds };
  });
  const refused = states.find((s) => s.used + count > s.limit);
  if (refused) {
    return {
      result: { allowed: false, limit: refused.limit, remaining: 0, resetAt: refused.resetAt },
      updates: [],
    };
  }
  let tightest: HitResult | undefined;
  for (const s of states) {
    const remaining = s.limit - s.used - count;
    if (!tightest || remaining < tightest.remaining) {
      tightest = { allowed: true, limit: s.limit, remaining, resetAt: s.resetAt };
    }
  }
  return {
    // An empty `limits` limits nothing; callers always pass at least "all".
    result: tightest ?? { allowed: true, limit: 0, remaining: 0, resetAt: 0 },
    updates: states.map((s) => ({
      bucket: s.bucket,
      windowStart: s.windowStart,
      count: s.used + count,
    })),
  };
}

/** Seconds a refused client should wait: to the end of the window, at least 1. */
export function retryAfterSeconds(resetAt: number, nowMs: number): number {
  return Math.max(1, Math.ceil(resetAt - nowMs / 1000));
}
