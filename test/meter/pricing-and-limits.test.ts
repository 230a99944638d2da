/** Metering pieces without storage: prices, rate-limit buckets, and the implementation chosen. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../worker/env";
import {
  LLM_RATE_LIMIT_PER_MINUTE,
  limitsFor,
  RATE_LIMIT_PER_MINUTE,
} from "../../worker/meter/limits";
import { PRICES } from "../../worker/meter/prices";
import {
  createMetering,
  DurableObjectMetering,
  NoopMetering,
} from "../../worker/middleware/metering";
import { operationFor } from "../../worker/routes";
import { MISSING_ID } from "../helpers";
import { T0, T0_SECONDS } from "./fixtures";

describe("metering pieces without storage", () => {
  // The price a request pays is its declared operation's (worker/routes/operation.ts).
  const priceOf = (method: string, path: string) => {
    const priceClass = operationFor(method, path)?.price;
    return priceClass ? PRICES[priceClass] : null;
  };

  it.each<[method: string, path: string, atomic: string | null]>([
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
  ])(
    "prices the spec's paid endpoints and the clients' alias, and nothing else: %s %s costs %s",
    (method, path, atomic) => {
      expect(priceOf(method, path)?.atomic ?? null).toBe(atomic);
    },
  );

  it("states each price in atomic USDC units and in dollars", () => {
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
      expect(await noop.wallet("0xabc").reserveFree(100)).toEqual({
        granted: true,
        used: 0,
        remaining: 100,
      });
    }
    expect(await noop.wallet("0xabc").freeStatus(100)).toEqual({ used: 0, remaining: 100 });
  });
});
