/** The Meter Durable Object on its own: rate-limit counts and windows, the free allowance, storage. */
import { abortAllDurableObjects } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { freshStub, rows, T0, T0_SECONDS } from "./fixtures";

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

describe("Meter rate limit and free call in one call", () => {
  it("takes a free call with an allowed hit, and none with a refused one", async () => {
    const stub = freshStub();
    expect(
      await stub.hitAll([{ bucket: "all", limit: 1, windowSeconds: 60 }], T0, { total: 2 }),
    ).toEqual({
      allowed: true,
      limit: 1,
      remaining: 0,
      resetAt: T0 / 1000 + 60,
      free: { granted: true, used: 1, remaining: 1 },
    });
    const refused = await stub.hitAll([{ bucket: "all", limit: 1, windowSeconds: 60 }], T0, {
      total: 2,
    });
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.free).toBeUndefined();
    expect(await stub.freeStatus(2)).toEqual({ used: 1, remaining: 1 });
  });

  it("answers the allowance used up as a refused grant, the hit still counted", async () => {
    const stub = freshStub();
    await stub.reserveFree(1);
    const hit = await stub.hitAll([{ bucket: "all", limit: 5, windowSeconds: 60 }], T0, {
      total: 1,
    });
    expect(hit).toMatchObject({ allowed: true, remaining: 4 });
    expect(hit.free).toEqual({ granted: false, used: 1, remaining: 0 });
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
