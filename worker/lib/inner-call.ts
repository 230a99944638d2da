/**
 * Marks the env of a request the Worker sends to itself (an MCP tool call dispatched as its
 * operation's HTTP request, worker/mcp/call.ts). Only code can set a symbol key on the env,
 * never a client, so the mark cannot be forged.
 *
 * Each tool call counts against the rate limit like the same call made directly, batches
 * included: the /mcp request that carries the calls was counted once already, and that count
 * stands for its first tool call, so the first inner call skips the "all" bucket and every
 * later one in the same /mcp request is counted (middleware/meter.ts). A batch of 100 tool
 * calls is 100 requests, one tool call is one.
 */
export const INNER_CALL = Symbol("inner call");

/** What the tool calls of one /mcp request share: whether the request's own count is used. */
export interface InnerCalls {
  outerCountUsed: boolean;
}

export const innerCallsOf = (env: object): InnerCalls | undefined =>
  (env as Record<symbol, InnerCalls | undefined>)[INNER_CALL];

export const innerEnv = <E extends object>(env: E): E => ({
  ...env,
  [INNER_CALL]: { outerCountUsed: false } satisfies InnerCalls,
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
