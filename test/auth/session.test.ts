/** POST /auth/session: a wallet signature exchanged for a 7-day session token. */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { expectError, nowSeconds, request } from "../helpers";
import { highSTwin, openSession, SEVEN_DAYS_MS, signed } from "./fixtures";

describe("POST /auth/session", () => {
  it("exchanges a signature for a 7-day token bound to the lower-case wallet", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const before = Date.now();
    const res = await openSession(account);
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe("string");
    expect(res.body.token.split(".")).toHaveLength(3);
    expect(res.body.wallet).toBe(account.address.toLowerCase());
    const expiresAt = Date.parse(res.body.expires_at);
    expect(Number.isNaN(expiresAt)).toBe(false);
    expect(expiresAt).toBeGreaterThanOrEqual(before + SEVEN_DAYS_MS - 2000);
    expect(expiresAt).toBeLessThanOrEqual(after + SEVEN_DAYS_MS + 2000);
  });

  it("exchanges one signature once, even when the copies race: one token per signature", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { address, ts, signature } = await signed(account);
    const body = { address, timestamp: ts, signature };
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => request("POST", "/auth/session", { body })),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const again = await request("POST", "/auth/session", { body });
    const error = expectError(again, 401, "UNAUTHORIZED");
    expect(error.message).toMatch(/already exchanged/);
    // The same timestamp signed without 0x is the same signature.
    const bare = { ...body, signature: signature.slice(2) };
    expectError(await request("POST", "/auth/session", { body: bare }), 401, "UNAUTHORIZED");
    // A newly signed timestamp gets its own token.
    const next = await signed(account, ts + 1);
    const fresh = await request("POST", "/auth/session", {
      body: { address, timestamp: next.ts, signature: next.signature },
    });
    expect(fresh.status).toBe(200);
  });

  it("exchanges one signed message once, whichever form of its signature comes first", async () => {
    const exchange = (body: object) => request("POST", "/auth/session", { body });
    // The normal (low-s) signature first, then its high-s twin; and the twin first.
    for (const twinFirst of [false, true]) {
      const account = privateKeyToAccount(generatePrivateKey());
      const { address, ts, signature } = await signed(account);
      const low = { address, timestamp: ts, signature };
      const high = { ...low, signature: highSTwin(signature) };
      const answers = [];
      for (const body of twinFirst ? [high, low, high] : [low, high, low]) {
        answers.push(await exchange(body));
      }
      expect(
        answers.filter((a) => a.status === 200),
        `twin first: ${twinFirst}`,
      ).toHaveLength(1);
      for (const a of answers.filter((r) => r.status !== 200)) expectError(a, 401, "UNAUTHORIZED");
      // The twin is refused as a high-s signature, not as one already exchanged.
      const twin = answers[twinFirst ? 0 : 1];
      expect(twin?.body.error.message).toMatch(/EIP-2/);
    }
    // Sent at once, still one token.
    const account = privateKeyToAccount(generatePrivateKey());
    const { address, ts, signature } = await signed(account);
    const raced = await Promise.all([
      exchange({ address, timestamp: ts, signature }),
      exchange({ address, timestamp: ts, signature: highSTwin(signature) }),
      // The same signature with v as 0/1 (yParity) instead of 27/28: the same message.
      exchange({
        address,
        timestamp: ts,
        signature: `${signature.slice(0, 130)}${(Number.parseInt(signature.slice(130), 16) - 27).toString(16).padStart(2, "0")}`,
      }),
    ]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it("accepts a lower-case address and a signature without 0x", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { address, ts, signature } = await signed(account);
    const res = await request("POST", "/auth/session", {
      body: { address: address.toLowerCase(), timestamp: ts, signature: signature.slice(2) },
    });
    expect(res.status).toBe(200);
    expect(res.body.wallet).toBe(address.toLowerCase());
  });

  it.each(["address", "timestamp", "signature"] as const)(
    "answers 422 with the field path when %s is missing",
    async (field) => {
      const account = privateKeyToAccount(generatePrivateKey());
      const { address, ts, signature } = await signed(account);
      const body: Record<string, unknown> = { address, timestamp: ts, signature };
      delete body[field];
      const res = await request("POST", "/auth/session", { body });
      const error = expectError(res, 422, "VALIDATION_ERROR");
      const paths = (error.details.issues as Array<{ path: string }>).map((i) => i.path);
      expect(paths).toEqual([field]);
    },
  );

  it("answers 422 when the body is empty", async () => {
    const res = await request("POST", "/auth/session", { body: {} });
    const error = expectError(res, 422, "VALIDATION_ERROR");
    const paths = (error.details.issues as Array<{ path: string }>).map((i) => i.path).sort();
    expect(paths).toEqual(["address", "signature", "timestamp"]);
  });

  it("answers 422 when the timestamp is a string", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { address, ts, signature } = await signed(account);
    const res = await request("POST", "/auth/session", {
      body: { address, timestamp: String(ts), signature },
    });
    const error = expectError(res, 422, "VALIDATION_ERROR");
    const paths = (error.details.issues as Array<{ path: string }>).map((i) => i.path);
    expect(paths).toEqual(["timestamp"]);
  });

  it("answers 401 for a signature by another key", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const { ts, signature } = await signed(other);
    const res = await request("POST", "/auth/session", {
      body: { address: account.address, timestamp: ts, signature },
    });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("answers 401 for a garbage signature", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const res = await request("POST", "/auth/session", {
      body: { address: account.address, timestamp: nowSeconds(), signature: "0xdeadbeef" },
    });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("answers 401 for a signature over a different prefix", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { address, ts, signature } = await signed(account, nowSeconds(), "memoclaw-auth");
    const res = await request("POST", "/auth/session", {
      body: { address, timestamp: ts, signature },
    });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("answers 401 for a stale or future timestamp", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    // Each timestamp is taken just before its request, 10 s beyond the 300 s tolerance: taken
    // together up front, a slow first request let the future one fall back inside it.
    for (const offset of [-310, 310]) {
      const ts = nowSeconds() + offset;
      const { address, signature } = await signed(account, ts);
      const res = await request("POST", "/auth/session", {
        body: { address, timestamp: ts, signature },
      });
      expectError(res, 401, "UNAUTHORIZED");
    }
  });
});
