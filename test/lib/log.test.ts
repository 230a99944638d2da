import { DrizzleQueryError, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { describeFailure, logError } from "../../worker/lib/log";
import { withDb } from "../db";
import { newWallet, PREFIX, request, signAuth, uniqueText } from "../helpers";
import {
  type ConsoleCall,
  captureConsole,
  expectedTag,
  lineOf,
  requestLines,
  textOf,
} from "../log-capture";

/**
 * Log lines must not hold what users send or store. The Worker runs in this isolate, so the
 * console methods it calls are the ones spied on here. A trigger makes Postgres refuse memories
 * whose content starts with REFUSED: a real failing query, with the content, metadata and tags
 * among its parameters, reaches the app's error handler.
 */
const REFUSED = "log-test-refused:";
const SQLSTATE = "P0001";

beforeAll(() =>
  withDb(async (db) => {
    await db.execute(
      sql.raw(`CREATE OR REPLACE FUNCTION log_test_refuse() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION 'refused by the log test' USING ERRCODE = '${SQLSTATE}'; END
        $$ LANGUAGE plpgsql`),
    );
    await db.execute(sql.raw("DROP TRIGGER IF EXISTS log_test_refuse ON memories"));
    await db.execute(
      sql.raw(`CREATE TRIGGER log_test_refuse BEFORE INSERT OR UPDATE ON memories FOR EACH ROW
        WHEN (starts_with(NEW.content, '${REFUSED}')) EXECUTE FUNCTION log_test_refuse()`),
    );
  }),
);

afterAll(() =>
  withDb(async (db) => {
    await db.execute(sql.raw("DROP TRIGGER IF EXISTS log_test_refuse ON memories"));
    await db.execute(sql.raw("DROP FUNCTION IF EXISTS log_test_refuse()"));
  }),
);

/**
 * A new wallet, its x-wallet-auth header, and what of it no log may hold: its address as given,
 * lowercased and without 0x, and the signature of the header, with and without 0x.
 */
async function signedWallet() {
  const w = newWallet();
  const auth = await signAuth(w.account);
  const signature = auth.split(":")[2] ?? "";
  const secrets = [
    w.address,
    w.address.toLowerCase(),
    w.address.slice(2).toLowerCase(),
    signature,
    signature.slice(2),
  ];
  return { w, auth, secrets };
}

/** The one argument of each call that logged an object with `event` (lib/log.ts lines). */
const eventLines = (calls: ConsoleCall[], event: string) =>
  calls.flatMap(({ method, args }) => {
    const [line] = args;
    const isEvent =
      typeof line === "object" && line !== null && (line as { event?: unknown }).event === event;
    return isEvent ? [{ method, line: line as Record<string, unknown> }] : [];
  });

describe("logs of a failing request", () => {
  it("name the request, the route and the SQLSTATE, and hold no content, metadata or wallet", async () => {
    const { w, auth, secrets } = await signedWallet();
    const calls = captureConsole();
    const logs = () => textOf(calls());
    // A fault injected on purpose (the trigger above): its 500 is outside the contract.
    const res = await request("POST", "/v1/store", {
      body: {
        content: `${REFUSED} the user's diary entry about pineapples`,
        metadata: { secret_note: "metadata value kiwi", wallet: w.address },
        tags: ["tag-mango"],
      },
      headers: { "x-wallet-auth": auth },
      unchecked: true,
    });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("INTERNAL_ERROR");
    const lines = logs();

    expect(lines).toContain(res.body.error.request_id);
    expect(lines).toContain("/v1/store");
    expect(lines).toContain(`SQLSTATE ${SQLSTATE}`);
    // The failure's line and the request's line, joined by the request id.
    const [failure, ...more] = eventLines(calls(), "error");
    expect(more).toEqual([]);
    expect(failure?.method).toBe("error");
    expect(failure?.line).toMatchObject({
      request_id: res.body.error.request_id,
      where: "POST /v1/store",
      error: expect.stringContaining(`SQLSTATE ${SQLSTATE}`),
    });
    expect(lineOf(requestLines(calls()), res.body.error.request_id)).toMatchObject({
      route: "storeMemory",
      status: 500,
      wallet: await expectedTag(w.address),
      // A free call, given back: the call failed.
      payment: "free",
    });
    for (const secret of ["pineapples", "kiwi", "tag-mango", ...secrets]) {
      expect(lines, secret).not.toContain(secret);
    }
    // Nothing the database echoes about the row either.
    expect(lines).not.toContain("refused by the log test");
    expect(lines).not.toMatch(/params:|insert into/i);
  });
});

describe("logError", () => {
  const address = "0x52908400098527886E0F7030069857D2E4169EE7";
  const signature = `0x${"ab12".repeat(32)}cd`;

  it("logs a failed query by SQLSTATE and names, never its SQL, parameters or values", () => {
    const calls = captureConsole();
    const logs = () => textOf(calls());
    const pgError = Object.assign(
      new Error(`duplicate key value violates unique constraint: Key (wallet)=(${address})`),
      {
        name: "DatabaseError",
        code: "23505",
        constraint: "users_wallet_unique",
        table: "users",
        detail: `Key (wallet)=(${address}) already exists.`,
      },
    );
    const failed = new DrizzleQueryError(
      'insert into "users" ("wallet", "note") values ($1, $2)',
      [address, "a private note about figs"],
      pgError,
    );
    logError("[req-1] POST /v1/store", failed);
    const [logged, ...more] = eventLines(calls(), "error");
    expect(more).toEqual([]);
    expect(logged?.method).toBe("error");
    expect(logged?.line).toMatchObject({ request_id: "req-1", where: "POST /v1/store" });
    const line = logs();
    expect(line).toContain("SQLSTATE 23505");
    expect(line).toContain("constraint=users_wallet_unique");
    expect(line).toContain("table=users");
    for (const secret of ["figs", "insert into", address, address.slice(2), "already exists"]) {
      expect(line, secret).not.toContain(secret);
    }
  });

  it("shortens wallet addresses and signatures in any other error's message", () => {
    const text = describeFailure(new Error(`payer ${address} signed ${signature}`));
    expect(text).toContain("0x5290…9EE7");
    expect(text).toContain("0xab12…12cd");
    expect(text).not.toContain(address);
    expect(text).not.toContain(signature);
    expect(text).toContain("payer");
  });

  it("logs neither a thrown non-Error value nor a SyntaxError's quoted input", () => {
    expect(describeFailure({ content: "secret plans" })).not.toContain("secret plans");
    let parseError: unknown;
    try {
      JSON.parse('{"content": "secret plans"');
    } catch (err) {
      parseError = err;
    }
    const text = describeFailure(parseError);
    expect(text).toContain("SyntaxError");
    expect(text).not.toContain("secret plans");
  });
});

describe("logs while the database is unavailable", () => {
  afterEach(() => vi.useRealTimers());

  it("are one line without stack frames every 5 s, counting the failures it stands for", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2030-01-01T00:00:00Z");
    vi.setSystemTime(start);
    const calls = captureConsole();
    const outage = () =>
      new DrizzleQueryError("select 1", [], new Error("Connection terminated unexpectedly"));
    for (let i = 0; i < 50; i++) logError(`[req-${i}] POST /v1/store`, outage());
    vi.setSystemTime(start + 5_000);
    logError("[req-last] POST /v1/store", outage());
    const lines = calls();

    expect(lines).toHaveLength(2);
    const [first, last] = eventLines(lines, "database_unavailable");
    expect(first?.method).toBe("warn");
    expect(first?.line).toEqual({
      event: "database_unavailable",
      request_id: "req-0",
      where: "POST /v1/store",
      error: "query failed <- caused by Error: Connection terminated unexpectedly",
    });
    expect(last?.line).toMatchObject({
      request_id: "req-last",
      more_failures: 49,
      over_seconds: 5,
    });
    expect(last?.line).not.toHaveProperty("stack");
    // A failure that is not an outage still gets its own line and stack frames.
    logError("[req-bug] POST /v1/store", new TypeError("x is undefined"));
    const [bug] = eventLines(calls(), "error");
    expect(bug?.line).toMatchObject({
      request_id: "req-bug",
      error: "TypeError: x is undefined",
      stack: expect.arrayContaining([expect.stringMatching(/^at /)]),
    });
  });
});

describe("request lines", () => {
  it("are one JSON object per request: operation, status, wallet tag and payment, nothing sent", async () => {
    const { w, auth, secrets } = await signedWallet();
    const content = `log-line-test ${uniqueText("guava")}`;
    const calls = captureConsole();

    const stored = await request("POST", "/v1/store", {
      body: { content, metadata: { note: "metadata value quince" }, tags: ["tag-lychee"] },
      headers: { "x-wallet-auth": auth },
    });
    expect(stored.status).toBe(201);
    const memoryId: string = stored.body.id;
    const got = await w.get(`/v1/memories/${memoryId}`);
    expect(got.status).toBe(200);
    const unknown = await w.get("/v1/no-such-path-tamarind");
    expect(unknown.status).toBe(404);
    const forged = await request("GET", "/v1/memories", {
      headers: {
        "x-wallet-auth": `${w.address}:${Math.floor(Date.now() / 1000)}:0x${"12".repeat(65)}`,
      },
    });
    expect(forged.status).toBe(401);
    const health = await request("GET", "/health");
    expect(health.status).toBe(200);

    const lines = requestLines(calls());
    const tag = await expectedTag(w.address);
    expect(tag).toMatch(/^[0-9a-f]{16}$/);
    const of = (res: { headers: Headers }) => lineOf(lines, res.headers.get("x-request-id"));
    expect(of(stored)).toEqual({
      event: "request",
      request_id: stored.headers.get("x-request-id"),
      route: "storeMemory",
      method: "POST",
      status: 201,
      duration_ms: expect.any(Number),
      auth: "wallet",
      wallet: tag,
      payment: "free",
    });
    expect(of(stored).duration_ms).toBeGreaterThanOrEqual(0);
    // The operation, not the path: the memory id is not in it.
    expect(of(got)).toMatchObject({
      route: "getMemory",
      status: 200,
      wallet: tag,
      payment: "none",
    });
    expect(of(unknown)).toMatchObject({ route: null, method: "GET", status: 404, wallet: tag });
    expect(of(forged)).toMatchObject({ route: "listMemories", status: 401, auth: "invalid" });
    expect(of(forged).wallet).toBeNull();
    expect(of(health)).toMatchObject({ route: "health", auth: "anonymous", wallet: null });

    const text = textOf(calls());
    for (const secret of [
      content,
      "guava",
      "quince",
      "tag-lychee",
      memoryId,
      "tamarind",
      ...secrets,
      "12".repeat(65),
      PREFIX,
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
