/**
 * Tool calls inside one POST /mcp (a JSON-RPC batch) count against the rate limit and the free
 * allowance exactly as the same calls made directly: a batch of 120 calls is 120 requests, and
 * a paid tool call takes its free call or asks for a payment like its route.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { newWallet, type Wallet } from "../helpers";
import { exhaustAllowance } from "../payment/chain";
import { freezeClock } from "../timing";

afterEach(() => {
  vi.useRealTimers();
});

const MCP_HEADERS = { accept: "application/json, text/event-stream" };

/** The POST /mcp answer to `calls` tools/call messages sent as one JSON-RPC batch. */
async function batchResponse(w: Wallet, calls: Array<{ name: string; arguments: object }>) {
  const body = calls.map((params, id) => ({ jsonrpc: "2.0", id, method: "tools/call", params }));
  const res = await w.call("POST", "/mcp", body, MCP_HEADERS);
  expect(res.status).toBe(200);
  return res;
}

/** One POST /mcp carrying `calls` tools/call messages as a JSON-RPC batch. */
async function batch(w: Wallet, calls: Array<{ name: string; arguments: object }>) {
  const res = await batchResponse(w, calls);
  type Answer = { id: number; result?: ToolResult; error?: unknown };
  const answers = (Array.isArray(res.body) ? res.body : [res.body]) as Answer[];
  expect(answers).toHaveLength(calls.length);
  return answers.sort((a, b) => a.id - b.id).map((a) => a.result ?? { error: a.error });
}

interface ToolResult {
  isError?: boolean;
  content?: Array<{ text: string }>;
  structuredContent?: Record<string, unknown>;
}

/** The HTTP status a tool result stands for: 200, or the failed call's status. */
function statusOf(result: ToolResult & { error?: unknown }): number {
  if (!result.isError) return 200;
  const text = result.content?.[0]?.text ?? "{}";
  const parsed = JSON.parse(text) as { status?: number; "x402/error"?: { code: number } };
  return parsed["x402/error"]?.code ?? parsed.status ?? 0;
}

function counts(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe("tool calls in an /mcp batch", () => {
  it("count each against the 100 a minute: two batches of 60 calls, 100 served, 20 refused", async () => {
    freezeClock();
    const w = newWallet();
    const calls = Array.from({ length: 60 }, () => ({
      name: "memoclaw_search",
      arguments: { query: "anything" },
    }));
    const statuses = [...(await batch(w, calls)), ...(await batch(w, calls))].map(statusOf);
    expect(counts(statuses)).toEqual({ 200: 100, 429: 20 });
    // The window is used up for the wallet's direct calls too.
    expect((await w.call("GET", "/v1/memories")).status).toBe(429);
  });

  it("count a single tool call once, as the same call made directly", async () => {
    freezeClock();
    const w = newWallet();
    await batch(w, [{ name: "memoclaw_search", arguments: { query: "x" } }]);
    const direct = await w.call("GET", "/v1/memories");
    expect(direct.headers.get("x-ratelimit-remaining")).toBe("98");
  });

  it("answer with the rate-limit headers their tool calls left: 100 calls leave 0", async () => {
    const { resetAt } = freezeClock();
    const w = newWallet();
    const count = { name: "memoclaw_count", arguments: {} };
    const rateLimit = (res: { headers: Headers }) =>
      ["limit", "remaining", "reset"].map((h) => res.headers.get(`x-ratelimit-${h}`));
    // One tool call is the /mcp request's own count.
    expect(rateLimit(await batchResponse(w, [count]))).toEqual(["100", "99", String(resetAt)]);
    // Ten more: ten counted.
    const ten = await batchResponse(
      w,
      Array.from({ length: 10 }, () => count),
    );
    expect(rateLimit(ten)).toEqual(["100", "89", String(resetAt)]);
    expect((await w.call("GET", "/v1/memories")).headers.get("x-ratelimit-remaining")).toBe("88");

    // A fresh wallet's batch of 100: the window is used up, and the answer says so.
    const full = newWallet();
    const hundred = await batchResponse(
      full,
      Array.from({ length: 100 }, () => count),
    );
    expect(rateLimit(hundred)).toEqual(["100", "0", String(resetAt)]);
    expect((await full.call("GET", "/v1/memories")).status).toBe(429);
  });

  it("take the free allowance per paid call: 10 stores with 5 free calls left, 5 served, 5 asked to pay", async () => {
    freezeClock();
    const w = newWallet();
    await exhaustAllowance(w.address.toLowerCase(), 95);
    const calls = Array.from({ length: 10 }, (_, i) => ({
      name: "memoclaw_store",
      arguments: { content: `batched memory number ${i} ${crypto.randomUUID()}` },
    }));
    const statuses = (await batch(w, calls)).map(statusOf);
    expect(counts(statuses)).toEqual({ 200: 5, 402: 5 });
    const status = await w.call("GET", "/v1/free-tier/status");
    expect(status.body).toMatchObject({ free_tier_used: 100, free_tier_remaining: 0 });
    expect((await w.call("GET", "/v1/memories/count")).body.count).toBe(5);
  });
});
