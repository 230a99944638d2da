/**
 * Marks the env of a request the Worker sends to itself (an MCP tool call dispatched as its
 * operation's HTTP request, worker/mcp/call.ts). Only code can set a symbol key on the env,
 * never a client, so the mark cannot be forged.
 *
 * Each tool call counts against the rate limit like the same call made directly, batches
 * included: the /mcp request that carries the calls was counted once already, and that count
 * stands for its first tool call, so the first inner call skips the "all" bucket and every
 * later one in the same /mcp request is counted (middleware/meter.ts). A batch of 100 tool
 * calls is 100 requests, one tool call is one. The /mcp response's X-RateLimit-* headers then
 * tell the counts after its tool calls, not the /mcp request's own (`reported`).
 */
import type { HitResult } from "../meter/limits";

export const INNER_CALL = Symbol("inner call");

/** What the tool calls of one /mcp request share. */
export interface InnerCalls {
  /** Whether the /mcp request's own count has stood for a tool call yet. */
  outerCountUsed: boolean;
  /**
   * Per identity counted against (a Meter key), the latest state of the buckets the tool
   * calls counted in (laterHit). A tool call paid by an x402 payer alone counts against that
   * wallet, while its /mcp request, which carries no payment, counts against the client IP.
   */
  reported: Map<string, HitResult>;
}

export const newInnerCalls = (): InnerCalls => ({ outerCountUsed: false, reported: new Map() });

export const innerCallsOf = (env: object): InnerCalls | undefined =>
  (env as Record<symbol, InnerCalls | undefined>)[INNER_CALL];

/** The env the tool calls of one /mcp request are sent with, sharing `calls`. */
export const innerEnv = <E extends object>(env: E, calls: InnerCalls): E => ({
  ...env,
  [INNER_CALL]: calls,
});

/**
 * Whether a request counts in the "all" bucket: every direct request does, and every tool call
 * but the first of its /mcp request (whose own count stands for it). Claims that count.
 */
export function countsInAll(env: object): boolean {
  const inner = innerCallsOf(env);
  if (!inner || inner.outerCountUsed) return true;
  inner.outerCountUsed = true;
  return false;
}

/**
 * Of two rate-limit answers, the one that tells the later state: the later window, then the
 * fewer requests left (counts only grow within a window, and a batch's calls run at once, so
 * the order they answer in says nothing).
 */
export function laterHit(a: HitResult, b: HitResult | undefined): HitResult {
  if (!b) return a;
  if (a.resetAt !== b.resetAt) return a.resetAt > b.resetAt ? a : b;
  return b.remaining < a.remaining ? b : a;
}

/**
 * Keeps a tool call's rate-limit answer, counted against `meterKey`, for its /mcp response
 * (nothing for a direct request).
 */
export function reportInnerHit(env: object, meterKey: string, result: HitResult): void {
  const inner = innerCallsOf(env);
  if (inner) inner.reported.set(meterKey, laterHit(result, inner.reported.get(meterKey)));
}
