/**
 * The Meter Durable Object on its own (counts, windows, the free allowance, storage), and
 * the free allowance through HTTP: exactly 100 free paid calls per wallet, under concurrency,
 * with failed calls given back.
 */
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../worker/env";
import {
  LLM_RATE_LIMIT_PER_MINUTE,
  limitsFor,
  RATE_LIMIT_PER_MINUTE,
} from "../worker/meter/limits";
import { createMetering, DurableObjectMetering, NoopMetering } from "../worker/meter/meter";
import { PRICES } from "../worker/meter/prices";
import { operationFor } from "../worker/routes";
import { allowanceUsedError, DEFAULT_PAYMENT_CHAIN } from "./fixtures";
import {
  type ApiResponse,
  expectError,
  MISSING_ID,
  newWallet,
  request,
  uniqueText,
  type Wallet,
} from "./helpers";
import { concurrently, freezeClock } from "./timing";

/** A minute boundary, so window arithmetic in the unit tests is easy to read. */
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const T0_SECONDS = T0 / 1000;

const freshStub = () => env.METER.get(env.METER.idFromName(`test:${crypto.randomUUID()}`));
const walletStub = (w: Wallet) =>
  env.METER.get(env.METER.idFromName(`wallet:${w.address.toLowerCase()}`));

type Row = Record<string, SqlStorageValue>;
const rows = (stub: ReturnType<typeof freshStub>, query: string) =>
  runInDurableObject(stub, (_instance, state) => state.storage.sql.exec<Row>(query).toArray());

describe("Meter.hit", () => {
  it("counts hits, reports what is left, and refuses the one over the limit", async () => {
    const stub = freshStub();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await stub.hit("all", 3, 60, T0 + 1000 * i));
    expect(results).toEqual([
      { allowed: true, limit: 3, remaining: 2, resetAt: T0_SECONDS + 60 },
      { allowed: true, limit: 3, remaining: 1, resetAt: T0_SECONDS + 60 },
      { allowed: true, limit: 3, remaining: 0, resetAt: T0_SECONDS + 60 },
      { allowed: false, limit: 3, remaining: 0, resetAt: T0_SECONDS + 60 },
    ]);
  });

  it("does not consume on refusal: refused hits leave the stored count at the limit", async () => {
    const stub = freshStub();
    for (let i = 0; i < 2; i++) await stub.hit("all", 2, 60, T0);
    for (let i = 0; i < 5; i++) expect((await stub.hit("all", 2, 60, T0)).allowed).toBe(false);
    expect(await rows(stub, "SELECT bucket, window_start, count FROM rate_window")).toEqual([
      { bucket: "all", window_start: T0_SECONDS, count: 2 },
    ]);
  });

  it("uses fixed windows aligned to the minute: the last millisecond and the next window", async () => {
    const stub = freshStub();
    expect(await stub.hit("all", 1, 60, T0 + 59_999)).toMatchObject({
      allowed: true,
      resetAt: T0_SECONDS + 60,
    });
    expect(await stub.hit("all", 1, 60, T0 + 59_999)).toMatchObject({ allowed: false });
    // The next minute starts with a full window, whenever in the old one the hits came.
    expect(await stub.hit("all", 1, 60, T0 + 60_000)).toEqual({
      allowed: true,
      limit: 1,
      remaining: 0,
      resetAt: T0_SECONDS + 120,
    });
    // One row per bucket: the new window replaced the old one.
    expect(await rows(stub, "SELECT bucket, window_start, count FROM rate_window")).toEqual([
      { bucket: "all", window_start: T0_SECONDS + 60, count: 1 },
    ]);
  });

  it("keeps buckets apart", async () => {
    const stub = freshStub();
    await stub.hit("all", 5, 60, T0);
    await stub.hit("all", 5, 60, T0);
    expect(await stub.hit("llm", 5, 60, T0)).toMatchObject({ remaining: 4 });
    expect(await stub.hit("all", 5, 60, T0)).toMatchObject({ remaining: 2 });
  });
});

describe("Meter.hitAll (all and llm together)", () => {
  const both = (all: number, llm: number) => [
    { bucket: "all", limit: all, windowSeconds: 60 },
    { bucket: "llm", limit: llm, windowSeconds: 60 },
  ];

  it("reports the bucket with fewer requests left", async () => {
    const stub = freshStub();
    expect(await stub.hitAll(both(100, 10), T0)).toEqual({
      allowed: true,
      limit: 10,
      remaining: 9,
      resetAt: T0_SECONDS + 60,
    });
  });

  it("a refusal by llm consumes nothing in all, and a refusal by all nothing in llm", async () => {
    const stub = freshStub();
    for (let i = 0; i < 2; i++) expect((await stub.hitAll(both(100, 2), T0)).allowed).toBe(true);
    expect(await stub.hitAll(both(100, 2), T0)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAt: T0_SECONDS + 60,
    });
    // "all" holds only the two allowed hits: this one is the third.
    expect(await stub.hit("all", 100, 60, T0)).toMatchObject({ allowed: true, remaining: 97 });

    const other = freshStub();
    await other.hit("all", 1, 60, T0);
    expect(await other.hitAll(both(1, 10), T0)).toMatchObject({ allowed: false, limit: 1 });
    expect(await other.hit("llm", 10, 60, T0)).toMatchObject({ allowed: true, remaining: 9 });
  });
});

describe("Meter free allowance", () => {
  it("reserves until the total, then refuses; release gives one back; status reports", async () => {
    const stub = freshStub();
    expect(await stub.freeStatus(3)).toEqual({ used: 0, remaining: 3 });
    expect(await stub.reserveFree(3)).toEqual({ granted: true, used: 1, remaining: 2 });
    expect(await stub.reserveFree(3)).toEqual({ granted: true, used: 2, remaining: 1 });
    expect(await stub.reserveFree(3)).toEqual({ granted: true, used: 3, remaining: 0 });
    expect(await stub.reserveFree(3)).toEqual({ granted: false, used: 3, remaining: 0 });
    expect(await stub.freeStatus(3)).toEqual({ used: 3, remaining: 0 });
    expect(await stub.releaseFree()).toEqual({ used: 2 });
    expect(await stub.freeStatus(3)).toEqual({ used: 2, remaining: 1 });
    expect(await stub.reserveFree(3)).toEqual({ granted: true, used: 3, remaining: 0 });
  });

  it("never goes below 0 used", async () => {
    const stub = freshStub();
    expect(await stub.releaseFree()).toEqual({ used: 0 });
    expect(await stub.releaseFree()).toEqual({ used: 0 });
    expect(await stub.reserveFree(2)).toEqual({ granted: true, used: 1, remaining: 1 });
  });

  it("grants exactly the total to 150 concurrent reservations", async () => {
    const stub = freshStub();
    const grants = await Promise.all(Array.from({ length: 150 }, () => stub.reserveFree(100)));
    const granted = grants.filter((g) => g.granted);
    expect(granted).toHaveLength(100);
    // Each grant saw a distinct count: no two reservations read the same state.
    expect(new Set(granted.map((g) => g.used)).size).toBe(100);
    expect(await stub.freeStatus(100)).toEqual({ used: 100, remaining: 0 });
  });
});

describe("Meter storage", () => {
  it("keeps counts in SQLite storage, across a restart of the object", async () => {
    const stub = freshStub();
    await stub.reserveFree(100);
    await stub.reserveFree(100);
    await stub.hit("all", 100, 60, T0);
    expect(await rows(stub, "SELECT id, used FROM free_tier")).toEqual([{ id: 1, used: 2 }]);

    await abortAllDurableObjects();
    const again = env.METER.get(stub.id);
    expect(await again.freeStatus(100)).toEqual({ used: 2, remaining: 98 });
    expect(await again.hit("all", 100, 60, T0)).toMatchObject({ remaining: 98 });
  });
});

describe("metering pieces without storage", () => {
  it("prices the spec's paid endpoints and the clients' alias, and nothing else", () => {
    const cases: Array<[string, string, string | null]> = [
      ["POST", "/v1/store", "5000"],
      ["POST", "/v1/recall", "5000"],
      ["PATCH", `/v1/memories/${MISSING_ID}`, "5000"],
      ["PATCH", "/v1/memories/batch", "5000"],
      ["POST", "/v1/memories/batch-update", "5000"],
      ["POST", "/v1/store/batch", "40000"],
      ["POST", "/v1/memories/extract", "10000"],
      ["POST", "/v1/memories/consolidate", "10000"],
      ["POST", "/v1/ingest", "10000"],
      ["POST", "/v1/context", "10000"],
      ["POST", "/v1/migrate", "10000"],
      ["GET", "/v1/memories", null],
      ["GET", `/v1/memories/${MISSING_ID}`, null],
      ["DELETE", `/v1/memories/${MISSING_ID}`, null],
      ["PATCH", `/v1/memories/${MISSING_ID}/relations`, null],
      ["POST", "/v1/search", null],
      ["POST", "/v1/memories/core", null],
      ["GET", "/v1/free-tier/status", null],
      ["GET", "/health", null],
      ["POST", "/auth/session", null],
    ];
    // The price a request pays is its declared operation's (worker/routes/operation.ts).
    const priceOf = (method: string, path: string) => {
      const priceClass = operationFor(method, path)?.price;
      return priceClass ? PRICES[priceClass] : null;
    };
    for (const [method, path, atomic] of cases) {
      expect(priceOf(method, path)?.atomic ?? null, `${method} ${path}`).toBe(atomic);
    }
    expect(priceOf("POST", "/v1/store")).toEqual({ atomic: "5000", usd: "0.005" });
    expect(priceOf("POST", "/v1/store/batch")).toEqual({ atomic: "40000", usd: "0.04" });
    expect(priceOf("POST", "/v1/migrate")).toEqual({ atomic: "10000", usd: "0.01" });
  });

  it("puts extract and consolidate in the llm bucket as well as all", () => {
    const limitsOf = (method: string, path: string) =>
      limitsFor(operationFor(method, path)?.bucket);
    const names = (method: string, path: string) => limitsOf(method, path).map((l) => l.bucket);
    expect(names("POST", "/v1/memories/extract")).toEqual(["all", "llm"]);
    expect(names("POST", "/v1/memories/consolidate")).toEqual(["all", "llm"]);
    expect(names("GET", "/v1/memories/extract")).toEqual(["all"]);
    expect(names("POST", "/v1/store")).toEqual(["all"]);
    expect(limitsOf("POST", "/v1/memories/extract").map((l) => l.limit)).toEqual([
      RATE_LIMIT_PER_MINUTE,
      LLM_RATE_LIMIT_PER_MINUTE,
    ]);
  });

  it("chooses the implementation from METERING and the binding", async () => {
    const parsed = (vars: Record<string, string>) => {
      const result = parseConfig({
        DATABASE_URL: "postgres://unused",
        JWT_SECRET: "x".repeat(32),
        ...vars,
      });
      if (!result.ok) throw new Error(result.problems.join("; "));
      return result.config;
    };
    expect(createMetering(parsed({}), { METER: env.METER })).toBeInstanceOf(DurableObjectMetering);
    expect(createMetering(parsed({ METERING: "on" }), { METER: env.METER })).toBeInstanceOf(
      DurableObjectMetering,
    );
    expect(createMetering(parsed({ METERING: "off" }), { METER: env.METER })).toBeInstanceOf(
      NoopMetering,
    );
    expect(createMetering(parsed({}), {})).toBeInstanceOf(NoopMetering);
    expect(() => createMetering(parsed({ METERING: "on" }), {})).toThrow("misconfigured");
    expect(
      parseConfig({ DATABASE_URL: "x", JWT_SECRET: "x".repeat(32), METERING: "maybe" }).ok,
    ).toBe(false);

    const noop = new NoopMetering();
    const limits = limitsFor();
    for (let i = 0; i < 3; i++) {
      expect(await noop.hit({ kind: "ip", ip: "1.2.3.4" }, limits, T0 + 5000)).toEqual({
        allowed: true,
        limit: 100,
        remaining: 100,
        resetAt: T0_SECONDS + 60,
      });
      expect(await noop.reserveFree("0xabc", 100)).toEqual({
        granted: true,
        used: 0,
        remaining: 100,
      });
    }
    expect(await noop.freeStatus("0xabc", 100)).toEqual({ used: 0, remaining: 100 });
  });
});

// --- Through HTTP -------------------------------------------------------------------------

afterEach(() => {
  vi.useRealTimers();
});

const statusOf = async (w: Wallet) => {
  const res = await w.get("/v1/free-tier/status");
  expect(res.status).toBe(200);
  return res.body;
};

const tally = (responses: ApiResponse[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

describe("GET /v1/free-tier/status", () => {
  it("answers exactly the free tier status record for a fresh wallet", async () => {
    const w = newWallet();
    const res = await w.get("/v1/free-tier/status");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      wallet: w.address.toLowerCase(),
      free_tier_remaining: 100,
      free_tier_total: 100,
      free_tier_used: 0,
    });
  });

  it("needs wallet auth", async () => {
    expectError(await request("GET", "/v1/free-tier/status"), 401, "UNAUTHORIZED");
  });
});

describe("free allowance through HTTP", () => {
  it("counts a served paid call; free endpoints never touch the allowance", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText());
    expect(await statusOf(w)).toMatchObject({ free_tier_used: 1, free_tier_remaining: 99 });
    expect((await w.get("/v1/memories")).status).toBe(200);
    expect((await w.get(`/v1/memories/${id}`)).status).toBe(200);
    expect((await w.post("/v1/search", { query: "note" })).status).toBe(200);
    expect((await w.post("/v1/memories/core", { memory_id: id })).status).toBe(200);
    expect((await w.get("/v1/stats")).status).toBe(200);
    expect(await statusOf(w)).toMatchObject({ free_tier_used: 1, free_tier_remaining: 99 });
    expect((await w.patch(`/v1/memories/${id}`, { importance: 0.9 })).status).toBe(200);
    expect((await w.post("/v1/recall", { query: "note" })).status).toBe(200);
    expect(
      (await w.post("/v1/memories/batch-update", { updates: [{ id, importance: 0.1 }] })).status,
    ).toBe(200);
    expect(await statusOf(w)).toMatchObject({ free_tier_used: 4, free_tier_remaining: 96 });
  });

  it("gives the free call back when the paid handler fails (422, 404)", async () => {
    const w = newWallet();
    expectError(await w.post("/v1/store", {}), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: "" }), 422, "VALIDATION_ERROR");
    expectError(await w.patch(`/v1/memories/${MISSING_ID}`, { importance: 0.5 }), 404, "NOT_FOUND");
    expectError(
      await w.patch("/v1/memories/not-a-uuid", { importance: 0.5 }),
      422,
      "VALIDATION_ERROR",
    );
    expectError(await w.post("/v1/store/batch", { memories: [] }), 422, "VALIDATION_ERROR");
    expect(await statusOf(w)).toEqual({
      wallet: w.address.toLowerCase(),
      free_tier_remaining: 100,
      free_tier_total: 100,
      free_tier_used: 0,
    });
  });

  it("answers 402 PAYMENT_REQUIRED with the price once the allowance is used", async () => {
    const w = newWallet();
    const stub = walletStub(w);
    for (let i = 0; i < 100; i++) await stub.reserveFree(100);

    const res = await w.post("/v1/store", { content: uniqueText("unpaid") });
    expect(res.status).toBe(402);
    expect(res.body).toEqual(allowanceUsedError(DEFAULT_PAYMENT_CHAIN));
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    const batch = await w.post("/v1/store/batch", { memories: [{ content: uniqueText() }] });
    expect(batch.status).toBe(402);
    expect(batch.body.error.details.price.amount).toBe("40000");
    expect(
      (await w.post("/v1/memories/extract", { text: "x" })).body.error.details.price.amount,
    ).toBe("10000");

    // Nothing was stored, the allowance stays used, free endpoints still answer.
    const list = await w.get("/v1/memories");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(0);
    expect(await statusOf(w)).toMatchObject({ free_tier_used: 100, free_tier_remaining: 0 });
  });

  it("gives exactly the last free calls to concurrent requests at the boundary", async () => {
    const w = newWallet();
    const stub = walletStub(w);
    for (let i = 0; i < 60; i++) await stub.reserveFree(100);
    freezeClock();
    // 100 paid calls (the rate limit's worth) racing for the 40 free calls left.
    const responses = await concurrently(
      Array.from(
        { length: 100 },
        (_, i) => () => w.post("/v1/store", { content: uniqueText(`race ${i}`) }),
      ),
    );
    expect(tally(responses)).toEqual({ 201: 40, 402: 60 });
    expect(await stub.freeStatus(100)).toEqual({ used: 100, remaining: 0 });
    vi.setSystemTime(Date.now() + 60_000);
    expect((await w.get("/v1/memories/count")).body.count).toBe(40);
    // 100 stores into one database: allow for a loaded machine (the race itself is instant).
  }, 90_000);

  it("150 concurrent paid calls from a fresh wallet: exactly 100 served, 50 answered 402", async () => {
    // 150 calls in one minute also meet the 100/min rate limit, which is checked first: 50 of
    // them are refused with 429 and, being refused, take nothing from the allowance. A real
    // client honours Retry-After and sends them again in the next window, where the
    // allowance (100 used by then) sends them to payment. So of the 150 calls exactly 100
    // are served free and 50 are asked to pay, with the real limits, no test-only settings,
    // and every count exact: a 429 that consumed, or a free call granted twice, would show.
    const w = newWallet();
    const { start } = freezeClock();
    expect(await statusOf(w)).toMatchObject({ free_tier_used: 0 });
    // The burst starts in the next minute, with the whole window to itself.
    vi.setSystemTime(start + 60_000);
    const contents = Array.from({ length: 150 }, (_, i) => uniqueText(`concurrent ${i}`));
    const first = await concurrently(
      contents.map((content) => () => w.post("/v1/store", { content })),
    );
    expect(tally(first)).toEqual({ 201: 100, 429: 50 });

    const refused = first.filter((r) => r.status === 429);
    expect(new Set(refused.map((r) => r.headers.get("retry-after")))).toEqual(new Set(["50"]));
    vi.setSystemTime(start + 60_000 + 50_000);

    const retried = await concurrently(
      contents
        .filter((_, i) => first[i]?.status === 429)
        .map((content) => () => w.post("/v1/store", { content })),
    );
    expect(tally(retried)).toEqual({ 402: 50 });
    for (const r of retried) expect(r.body.error.code).toBe("PAYMENT_REQUIRED");

    expect(await statusOf(w)).toEqual({
      wallet: w.address.toLowerCase(),
      free_tier_remaining: 0,
      free_tier_total: 100,
      free_tier_used: 100,
    });
    // Exactly the 100 served calls stored something.
    expect((await w.get("/v1/memories/count")).body.count).toBe(100);
  }, 90_000);
});
