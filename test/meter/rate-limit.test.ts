/**
 * Rate limits through HTTP: 100 requests per minute per wallet (else per client IP), 10 per
 * minute for extract and consolidate, the 429 body and headers, and the X-RateLimit-*
 * headers on every response.
 *
 * Every test freezes Date (the Worker runs in the test's isolate and sees the same clock)
 * 10 s into a minute, so its requests share one fixed window and Retry-After is exact.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ApiResponse,
  MISSING_ID,
  newWallet,
  nowSeconds,
  PREFIX,
  request,
  signAuth,
  type Wallet,
} from "../helpers";
import { concurrently, freezeClock } from "../timing";

afterEach(() => {
  vi.useRealTimers();
});

const times = <T>(n: number, call: () => Promise<T>) =>
  concurrently(Array.from({ length: n }, () => call));

const limitHeaders = (res: ApiResponse) => ({
  limit: res.headers.get("x-ratelimit-limit"),
  remaining: res.headers.get("x-ratelimit-remaining"),
  reset: res.headers.get("x-ratelimit-reset"),
});

/** A client IP of the documentation ranges, new for each test. */
const freshIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}:${crypto.randomUUID()}`;

const fromIp = (ip: string, method: string, path: string, extra: Record<string, unknown> = {}) =>
  request(method, path, { ...extra, headers: { "cf-connecting-ip": ip } });

/**
 * The 429 of a `limit`-per-minute window that ends at `resetAt`, refused 10 s into it (the
 * frozen clock): the documented body, Retry-After and the limit headers.
 */
function expectRateLimited(refused: ApiResponse, limit: number, resetAt: number) {
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({
    error: {
      code: "RATE_LIMIT_EXCEEDED",
      message: expect.any(String),
      details: { limit, reset_at: new Date(resetAt * 1000).toISOString() },
      request_id: expect.any(String),
    },
  });
  expect(refused.headers.get("retry-after")).toBe("50");
  expect(limitHeaders(refused)).toEqual({
    limit: String(limit),
    remaining: "0",
    reset: String(resetAt),
  });
}

const withIp = (w: Wallet, ip: string, method: string, path: string, body?: unknown) =>
  w.call(method, path, body, { "cf-connecting-ip": ip });

describe("100 requests per minute per wallet", () => {
  it("refuses the 101st with 429, the documented body, Retry-After and the headers", async () => {
    const w = newWallet();
    const { start, resetAt } = freezeClock();
    const allowed = await times(100, () => w.get("/v1/free-tier/status"));
    expect(allowed.map((r) => r.status)).toEqual(Array(100).fill(200));
    const remaining = allowed.map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const r of allowed) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("100");
      expect(r.headers.get("x-ratelimit-reset")).toBe(String(resetAt));
    }

    const refused = await w.get("/v1/memories");
    expectRateLimited(refused, 100, resetAt);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);

    // Refused on every path and method, paid ones included, and whatever the auth method.
    expect((await w.post("/v1/store", { content: "refused" })).status).toBe(429);
    expect((await w.get("/nowhere")).status).toBe(429);

    // Another wallet has its own window.
    const other = newWallet();
    const fine = await other.get("/v1/free-tier/status");
    expect(fine.status).toBe(200);
    expect(limitHeaders(fine)).toEqual({ limit: "100", remaining: "99", reset: String(resetAt) });

    // At the reset the wallet has a whole new window; the refusals consumed nothing (the
    // refused store took no free call).
    vi.setSystemTime(start + 50_000);
    const after = await w.get("/v1/free-tier/status");
    expect(after.status).toBe(200);
    expect(after.body.free_tier_used).toBe(0);
    expect(limitHeaders(after)).toEqual({
      limit: "100",
      remaining: "99",
      reset: String(resetAt + 60),
    });
  });

  it("counts a wallet's header and Bearer requests, from any IP, in one window", async () => {
    const w = newWallet();
    const timestamp = nowSeconds();
    const signature = await w.account.signMessage({ message: `${PREFIX}:${timestamp}` });
    const session = await request("POST", "/auth/session", {
      body: { address: w.address, timestamp, signature },
      headers: { "cf-connecting-ip": freshIp() },
    });
    expect(session.status).toBe(200);
    freezeClock();
    const bearer = { authorization: `Bearer ${session.body.token}` };
    expect(limitHeaders(await withIp(w, freshIp(), "GET", "/v1/free-tier/status")).remaining).toBe(
      "99",
    );
    const viaBearer = await request("GET", "/v1/free-tier/status", {
      headers: { ...bearer, "cf-connecting-ip": freshIp() },
    });
    expect(viaBearer.status).toBe(200);
    expect(limitHeaders(viaBearer).remaining).toBe("98");
    expect(limitHeaders(await w.get("/v1/memories")).remaining).toBe("97");
  });
});

describe("10 requests per minute for extract and consolidate", () => {
  it("answers the 11th POST /v1/memories/extract with 429, not the route's own answer", async () => {
    const w = newWallet();
    const { resetAt } = freezeClock();
    const results: ApiResponse[] = [];
    for (let i = 0; i < 10; i++) {
      results.push(await w.post("/v1/memories/extract", { text: `fact ${i}` }));
    }
    for (const [i, r] of results.entries()) {
      expect(r.status, `call ${i + 1}`).not.toBe(429);
      expect(limitHeaders(r)).toEqual({
        limit: "10",
        remaining: String(9 - i),
        reset: String(resetAt),
      });
    }
    expectRateLimited(await w.post("/v1/memories/extract", { text: "one too many" }), 10, resetAt);
    // Consolidate shares the bucket.
    expect((await w.post("/v1/memories/consolidate", {})).status).toBe(429);

    // The 10 allowed calls counted in "all" too, the 2 refused ones did not: this is the 11th.
    const other = await w.get("/v1/memories");
    expect(other.status).toBe(200);
    expect(limitHeaders(other)).toEqual({ limit: "100", remaining: "89", reset: String(resetAt) });
    // The 10 served extract calls used the free allowance; the refused ones did not.
    expect((await w.get("/v1/free-tier/status")).body.free_tier_used).toBe(10);
  });

  it("counts extract and consolidate together; Retry-After is at least 1 s", async () => {
    const w = newWallet();
    // Half a second before the window ends: Retry-After rounds up to 1.
    const { resetAt } = freezeClock(59_500);
    for (let i = 0; i < 5; i++) {
      expect((await w.post("/v1/memories/extract", { text: "x" })).status).not.toBe(429);
      expect((await w.post("/v1/memories/consolidate", {})).status).not.toBe(429);
    }
    const refused = await w.post("/v1/memories/consolidate", {});
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body.error.details.reset_at).toBe(new Date(resetAt * 1000).toISOString());
  });
});

describe("X-RateLimit-* headers on every response", () => {
  it("are on 200, 404 and 422 answers to a wallet, counting down", async () => {
    const w = newWallet();
    const { resetAt } = freezeClock();
    const answers = [
      await w.get("/v1/memories"),
      await w.get(`/v1/memories/${MISSING_ID}`),
      await w.get("/v1/no-such-route"),
      await w.post("/v1/store", {}),
      await w.call("POST", "/v1/store", undefined, { "content-type": "application/json" }),
    ];
    answers.push(await w.raw("POST", "/v1/store", "{not json"));
    expect(answers.map((r) => r.status)).toEqual([200, 404, 404, 422, 422, 422]);
    answers.forEach((r, i) => {
      expect(limitHeaders(r), `answer ${i}`).toEqual({
        limit: "100",
        remaining: String(99 - i),
        reset: String(resetAt),
      });
    });
  });

  it("are keyed by client IP without a verified wallet, on public endpoints too", async () => {
    const { resetAt } = freezeClock();
    const ip = freshIp();
    const answers = [
      await fromIp(ip, "GET", "/health"),
      await fromIp(ip, "GET", "/v1/free-tier/info"),
      await fromIp(ip, "POST", "/auth/session", { body: {} }),
      await fromIp(ip, "GET", "/v1/memories"),
      await fromIp(ip, "GET", "/nowhere"),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 422, 401, 404]);
    answers.forEach((r, i) => {
      expect(limitHeaders(r), `answer ${i}`).toEqual({
        limit: "100",
        remaining: String(99 - i),
        reset: String(resetAt),
      });
    });
    // Another IP, its own window.
    expect(limitHeaders(await fromIp(freshIp(), "GET", "/v1/free-tier/info")).remaining).toBe("99");
    // x-forwarded-for is the client's to write, so it is never read: it makes no new window.
    const forwarded = (chain: string) =>
      request("GET", "/v1/free-tier/info", {
        headers: { "cf-connecting-ip": ip, "x-forwarded-for": chain },
      });
    expect(limitHeaders(await forwarded(`${freshIp()}, 10.0.0.1`)).remaining).toBe("94");
    expect(limitHeaders(await forwarded(freshIp())).remaining).toBe("93");
  });

  it("never counts an unverified claimed wallet against that wallet, only against the IP", async () => {
    const victim = newWallet();
    const { resetAt } = freezeClock();
    const ip = freshIp();
    const valid = await signAuth(victim.account);
    const [address, ts] = valid.split(":");
    const forged = `${address}:${ts}:0x${"ab".repeat(65)}`;
    const attempts = await times(100, () =>
      request("GET", "/v1/memories", {
        headers: { "x-wallet-auth": forged, "cf-connecting-ip": ip },
      }),
    );
    expect(new Set(attempts.map((r) => r.status))).toEqual(new Set([401]));
    const overLimit = await request("GET", "/v1/memories", {
      headers: { "x-wallet-auth": forged, "cf-connecting-ip": ip },
    });
    expect(overLimit.status).toBe(429);
    expect(overLimit.body.error.details.limit).toBe(100);

    // The victim, even from the same IP, still has its whole window.
    const own = await withIp(victim, ip, "GET", "/v1/memories");
    expect(own.status).toBe(200);
    expect(limitHeaders(own)).toEqual({ limit: "100", remaining: "99", reset: String(resetAt) });
  });
});
