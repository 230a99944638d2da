/**
 * Marks the env of a request the Worker sends to itself (an MCP tool call dispatched as its
 * operation's HTTP request, worker/mcp/call.ts). Only code can set a symbol key on the env,
 * never a client, so the mark cannot be forged. The rate limiter counts the outer /mcp request
 * and skips the inner one: one tool call is one request.
 */
export const INNER_CALL = Symbol("inner call");

export const isInnerCall = (env: object) => (env as Record<symbol, unknown>)[INNER_CALL] === true;

export const innerEnv = <E extends object>(env: E): E => ({ ...env, [INNER_CALL]: true });
