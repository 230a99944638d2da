/** POST /auth/session: a wallet signature exchanged for a 7-day session token. */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { expectError, nowSeconds, request } from "../helpers";
import { openSession, SEVEN_DAYS_MS, signed } from "./fixtures";

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
