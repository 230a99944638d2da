import { DrizzleQueryError, sql } from "drizzle-orm";
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from "vitest";
import { describeFailure, logError } from "../../worker/lib/log";
import { withDb } from "../db";
import { newWallet, request, signAuth } from "../helpers";

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

const METHODS = ["log", "info", "warn", "error", "debug"] as const;
let spies: MockInstance[] = [];

function captureLogs(): () => string {
  spies = METHODS.map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
  return () =>
    spies
      .flatMap((spy) => spy.mock.calls)
      .map((args) => args.map((a) => (a instanceof Error ? `${a.stack} ${a.message}` : String(a))))
      .map((parts) => parts.join(" "))
      .join("\n");
}

afterEach(() => {
  for (const spy of spies) spy.mockRestore();
  spies = [];
});

describe("logs of a failing request", () => {
  it("name the request, the route and the SQLSTATE, and hold no content, metadata or wallet", async () => {
    const w = newWallet();
    const auth = await signAuth(w.account);
    const signature = auth.split(":")[2] ?? "";
    const logs = captureLogs();
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
    for (const secret of [
      "pineapples",
      "kiwi",
      "tag-mango",
      w.address,
      w.address.toLowerCase(),
      w.address.slice(2).toLowerCase(),
      signature,
      signature.slice(2),
    ]) {
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
    const logs = captureLogs();
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
    const line = logs();
    expect(line).toContain("[req-1] POST /v1/store");
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
    const logs = captureLogs();
    const outage = () =>
      new DrizzleQueryError("select 1", [], new Error("Connection terminated unexpectedly"));
    for (let i = 0; i < 50; i++) logError(`[req-${i}] POST /v1/store`, outage());
    vi.setSystemTime(start + 5_000);
    logError("[req-last] POST /v1/store", outage());
    const lines = logs().split("\n");

    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("[req-0] POST /v1/store: database unavailable");
    expect(lines[1]).toContain("[req-last]");
    expect(lines[1]).toContain("49 more failures like it in the last 5 s");
    expect(logs()).not.toMatch(/^\s+at /m);
    // A failure that is not an outage still gets its own line and stack frames.
    logError("[req-bug] POST /v1/store", new TypeError("x is undefined"));
    expect(logs()).toMatch(/\[req-bug\][^\n]*TypeError[^\n]*\n\s+at /);
  });
});
