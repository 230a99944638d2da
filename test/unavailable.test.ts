/**
 * An unreachable database is a 503 SERVICE_UNAVAILABLE with Retry-After on every route,
 * promptly, never a 500 or a hang. The suite's Worker code runs with DATABASE_URL pointed at a
 * port where nothing listens; the outage under load (stop, SIGKILL, connection exhaustion)
 * is scripts/fault-run.ts, run by CI against PostgreSQL.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../worker/db/unavailable";
import type { Env } from "../worker/env";
import worker from "../worker/index";
import { MISSING_ID, signAuth } from "./helpers";

/** Nothing listens on port 9 (discard) of the loopback here. */
const downEnv: Env = { ...env, DATABASE_URL: "postgres://postgres:postgres@127.0.0.1:9/postgres" };

async function callDown(method: string, path: string, body?: unknown, auth?: string) {
  const ctx = createExecutionContext();
  const started = Date.now();
  const res = await worker.fetch(
    new Request(`http://memory.test${path}`, {
      method,
      headers: { "content-type": "application/json", ...(auth ? { "x-wallet-auth": auth } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    downEnv,
    ctx,
  );
  const json = (await res.json()) as {
    error?: { code: string; message: string; request_id: string };
  };
  await waitOnExecutionContext(ctx);
  return { res, json, ms: Date.now() - started };
}

describe("database unreachable", () => {
  it("answers 503 SERVICE_UNAVAILABLE with Retry-After on every kind of route", async () => {
    const auth = await signAuth(privateKeyToAccount(generatePrivateKey()));
    const calls: Array<[string, string, unknown?]> = [
      ["POST", "/v1/store", { content: "The database is down right now" }],
      ["POST", "/v1/store/batch", { memories: [{ content: "one" }, { content: "two" }] }],
      ["GET", "/v1/memories"],
      ["GET", `/v1/memories/${MISSING_ID}`],
      ["PATCH", `/v1/memories/${MISSING_ID}`, { importance: 0.9 }],
      ["POST", "/v1/recall", { query: "anything" }],
      ["POST", "/v1/search", { query: "anything" }],
      ["GET", "/v1/stats"],
      ["DELETE", `/v1/memories/${MISSING_ID}`],
      // A waiting feed read answers the outage, not the end of its 25 s wait.
      ["GET", "/v1/changes?since=now&wait=25"],
      ["GET", "/v1/webhooks"],
    ];
    for (const [method, path, body] of calls) {
      const { res, json, ms } = await callDown(method, path, body, auth);
      expect({ path, status: res.status }).toEqual({ path, status: 503 });
      expect(json.error?.code).toBe("SERVICE_UNAVAILABLE");
      expect(typeof json.error?.request_id).toBe("string");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      // Bounded by the connect timeout (5 s), not by the runtime's hang detection.
      expect(ms).toBeLessThan(15_000);
    }
  }, 120_000);

  it("says so on /health too", async () => {
    const { res, json } = await callDown("GET", "/health");
    expect(res.status).toBe(503);
    expect(json.error?.code).toBe("SERVICE_UNAVAILABLE");
  });
});

describe("isDatabaseUnavailable", () => {
  const pgError = (code: string, message = "x") => Object.assign(new Error(message), { code });

  it("recognises connection loss, refusals, timeouts and the SQLSTATEs of an unavailable server", () => {
    for (const err of [
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      new Error("Query read timeout"),
      new Error("Client has encountered a connection error and is not queryable"),
      pgError("57P01"), // admin_shutdown
      pgError("57P03"), // cannot_connect_now
      pgError("53300"), // too_many_connections
      pgError("08006"), // connection_failure
      pgError("55P03"), // lock_not_available (the embedded database's queue)
      pgError("ECONNREFUSED"),
      new Error("query failed", { cause: new Error("Connection terminated unexpectedly") }),
      // The driver rejects with its WebSocket's event when the connection drops mid-query.
      new Error("Failed query", { cause: new Event("error") }),
      new Error("Failed query", { cause: new Event("close") }),
    ]) {
      expect({ message: err.message, unavailable: isDatabaseUnavailable(err) }).toEqual({
        message: err.message,
        unavailable: true,
      });
    }
  });

  it("leaves bugs and bad data as they are", () => {
    for (const err of [
      pgError("23505", "duplicate key value"),
      pgError("22P02", "invalid input syntax"),
      new TypeError("x is undefined"),
      new Error("Failed query", { cause: new Event("message") }),
      "a string",
      undefined,
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
  });
});
