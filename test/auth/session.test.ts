import { SignJWT } from "jose";
import type { PrivateKeyAccount } from "viem/accounts";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  type ApiResponse,
  expectError,
  newWallet,
  nowSeconds,
  PREFIX,
  request,
  signAuth,
} from "../helpers";

const JWT_SECRET = "test-secret-test-secret-test-secret-0123456789";
const ISSUER = "memory-service";
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

const get = (path: string, headers: Record<string, string>) => request("GET", path, { headers });

const withHeader = (value: string) => ({ "x-wallet-auth": value });
const withBearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The pieces of a signed `x-wallet-auth` value, for building malformed variants. */
async function signed(account: PrivateKeyAccount, ts = nowSeconds(), prefix = PREFIX) {
  const signature = await account.signMessage({ message: `${prefix}:${ts}` });
  return { address: account.address, ts, signature };
}

async function openSession(account: PrivateKeyAccount): Promise<ApiResponse> {
  const { address, ts, signature } = await signed(account);
  return request("POST", "/auth/session", { body: { address, timestamp: ts, signature } });
}

async function sessionToken(account: PrivateKeyAccount): Promise<string> {
  const res = await openSession(account);
  if (res.status !== 200) throw new Error(`session failed: ${res.status}`);
  return res.body.token as string;
}

function craftToken(opts: {
  subject: string;
  secret?: string;
  issuer?: string;
  exp?: number;
  iat?: number;
}): Promise<string> {
  const now = nowSeconds();
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(opts.subject)
    .setIssuer(opts.issuer ?? ISSUER)
    .setIssuedAt(opts.iat ?? now)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(new TextEncoder().encode(opts.secret ?? JWT_SECRET));
}

const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** Replaces the character at `i` with a different base64url character. */
function flipChar(s: string, i: number): string {
  const c = s[i];
  const replacement = c === "A" ? "B" : "A";
  return `${s.slice(0, i)}${replacement}${s.slice(i + 1)}`;
}

const contentsOf = (res: ApiResponse) =>
  (res.body.memories as Array<{ content: string }>).map((m) => m.content);

describe("x-wallet-auth header", () => {
  it("accepts a valid header and scopes the list to the wallet", async () => {
    const w = newWallet();
    await w.store("header auth works");
    const res = await get("/v1/memories", withHeader(await signAuth(w.account)));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(contentsOf(res)).toEqual(["header auth works"]);
  });

  it("accepts a signature without the 0x prefix", async () => {
    const w = newWallet();
    await w.store("no 0x prefix");
    const { address, ts, signature } = await signed(w.account);
    expect(signature.startsWith("0x")).toBe(true);
    const res = await get("/v1/memories", withHeader(`${address}:${ts}:${signature.slice(2)}`));
    expect(res.status).toBe(200);
    expect(contentsOf(res)).toEqual(["no 0x prefix"]);
  });

  it("treats a lower-case address as the same wallet as the checksummed one", async () => {
    const w = newWallet();
    const { address, ts, signature } = await signed(w.account);
    expect(address).not.toBe(address.toLowerCase());
    const lower = withHeader(`${address.toLowerCase()}:${ts}:${signature}`);

    const stored = await request("POST", "/v1/store", {
      body: { content: "stored with lower-case address" },
      headers: lower,
    });
    expect(stored.status).toBe(201);
    const id = stored.body.id as string;

    // Visible with the checksummed address...
    const viaChecksum = await w.get(`/v1/memories/${id}`);
    expect(viaChecksum.status).toBe(200);
    expect(viaChecksum.body.content).toBe("stored with lower-case address");

    // ...and a memory stored with the checksummed address is visible with the lower-case one.
    const otherId = await w.store("stored with checksummed address");
    const list = await get("/v1/memories", lower);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(contentsOf(list).sort()).toEqual(
      ["stored with checksummed address", "stored with lower-case address"].sort(),
    );
    const one = await get(`/v1/memories/${otherId}`, lower);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(otherId);
  });

  it("rejects a timestamp 301 seconds old", async () => {
    const w = newWallet();
    const res = await get(
      "/v1/memories",
      withHeader(await signAuth(w.account, nowSeconds() - 301)),
    );
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("rejects a timestamp 302 seconds in the future", async () => {
    // 302, not 301: the server's clock may tick a second between signing and checking.
    const w = newWallet();
    const res = await get(
      "/v1/memories",
      withHeader(await signAuth(w.account, nowSeconds() + 302)),
    );
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("accepts a timestamp 200 seconds old and 200 seconds ahead", async () => {
    const w = newWallet();
    const old = await get(
      "/v1/memories",
      withHeader(await signAuth(w.account, nowSeconds() - 200)),
    );
    expect(old.status).toBe(200);
    expect(old.body.total).toBe(0);
    const ahead = await get(
      "/v1/memories",
      withHeader(await signAuth(w.account, nowSeconds() + 200)),
    );
    expect(ahead.status).toBe(200);
  });

  it("rejects a signature made by a different key", async () => {
    const w = newWallet();
    const other = privateKeyToAccount(generatePrivateKey());
    const { ts, signature } = await signed(other);
    const res = await get("/v1/memories", withHeader(`${w.address}:${ts}:${signature}`));
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("rejects a signature over a different prefix", async () => {
    const w = newWallet();
    const res = await get(
      "/v1/memories",
      withHeader(await signAuth(w.account, nowSeconds(), "memoclaw-auth")),
    );
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("rejects a signature over a different timestamp than the one sent", async () => {
    const w = newWallet();
    const { address, ts, signature } = await signed(w.account, nowSeconds() - 10);
    const res = await get("/v1/memories", withHeader(`${address}:${ts + 1}:${signature}`));
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("rejects malformed headers", async () => {
    const w = newWallet();
    const { address, ts, signature } = await signed(w.account);
    const malformed = [
      `${address}:${ts}`,
      `${address}:${ts}:${signature}:extra`,
      `${address}:abc:${signature}`,
      `${address}:${ts}.5:${signature}`,
      `${address}::${signature}`,
      `${address}:${ts}:garbage`,
      `${address}:${ts}:0x${"zz".repeat(65)}`,
      `${address}:${ts}:${signature.slice(0, -2)}`,
      `${address}:${ts}:`,
      `not-an-address:${ts}:${signature}`,
      `0x1234:${ts}:${signature}`,
      "garbage",
    ];
    for (const value of malformed) {
      const res = await get("/v1/memories", withHeader(value));
      expect(res.status, value).toBe(401);
      expectError(res, 401, "UNAUTHORIZED");
    }
  });

  it("rejects a request with no authentication at all", async () => {
    expectError(await request("GET", "/v1/memories"), 401, "UNAUTHORIZED");
    expectError(
      await request("POST", "/v1/store", { body: { content: "anonymous" } }),
      401,
      "UNAUTHORIZED",
    );
  });

  it("rejects an Authorization header that is not a valid session token", async () => {
    expectError(await get("/v1/memories", withBearer("not-a-token")), 401, "UNAUTHORIZED");
    expectError(
      await get("/v1/memories", { authorization: "Basic dXNlcjpwYXNz" }),
      401,
      "UNAUTHORIZED",
    );
  });
});

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

describe("Bearer session token", () => {
  it("is accepted on list, store, get and delete, and sees the header wallet's data", async () => {
    const w = newWallet();
    const token = await sessionToken(w.account);
    const headerId = await w.store("stored with the header");

    const list = await get("/v1/memories", withBearer(token));
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.memories[0].id).toBe(headerId);

    const stored = await request("POST", "/v1/store", {
      body: { content: "stored with the bearer token" },
      headers: withBearer(token),
    });
    expect(stored.status).toBe(201);
    const bearerId = stored.body.id as string;

    const viaHeader = await w.get(`/v1/memories/${bearerId}`);
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.content).toBe("stored with the bearer token");

    const viaBearer = await get(`/v1/memories/${headerId}`, withBearer(token));
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body.content).toBe("stored with the header");

    const deleted = await request("DELETE", `/v1/memories/${headerId}`, {
      headers: withBearer(token),
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, id: headerId });
    expectError(await w.get(`/v1/memories/${headerId}`), 404, "NOT_FOUND");

    const after = await w.get("/v1/memories");
    expect(after.body.total).toBe(1);
    expect(after.body.memories[0].id).toBe(bearerId);
  });

  it("does not see another wallet's data", async () => {
    const a = newWallet();
    const b = newWallet();
    const aId = await a.store("belongs to wallet A");
    const tokenB = await sessionToken(b.account);
    const list = await get("/v1/memories", withBearer(tokenB));
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(0);
    expectError(await get(`/v1/memories/${aId}`, withBearer(tokenB)), 404, "NOT_FOUND");
  });

  it("accepts a crafted token signed with the service secret (sanity check of the crafting)", async () => {
    const w = newWallet();
    await w.store("crafted token sanity");
    const token = await craftToken({ subject: w.address.toLowerCase() });
    const res = await get("/v1/memories", withBearer(token));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
  });

  it("rejects a token whose signature was tampered with", async () => {
    const w = newWallet();
    const token = await sessionToken(w.account);
    const [header = "", payload = "", signature = ""] = token.split(".");
    const tampered = `${header}.${payload}.${flipChar(signature, Math.floor(signature.length / 2))}`;
    expect(tampered).not.toBe(token);
    expectError(await get("/v1/memories", withBearer(tampered)), 401, "UNAUTHORIZED");
  });

  it("rejects a token whose payload was changed to another wallet", async () => {
    const victim = newWallet();
    await victim.store("victim's secret");
    const attacker = newWallet();
    const token = await sessionToken(attacker.account);
    const [header = "", , signature = ""] = token.split(".");
    const now = nowSeconds();
    const forged = b64url(
      JSON.stringify({
        sub: victim.address.toLowerCase(),
        iss: ISSUER,
        iat: now,
        exp: now + 3600,
      }),
    );
    const res = await get("/v1/memories", withBearer(`${header}.${forged}.${signature}`));
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("rejects a token signed with another secret", async () => {
    const w = newWallet();
    const token = await craftToken({
      subject: w.address.toLowerCase(),
      secret: "another-secret-another-secret-another-secret-99",
    });
    expectError(await get("/v1/memories", withBearer(token)), 401, "UNAUTHORIZED");
  });

  it("rejects a token from another issuer", async () => {
    const w = newWallet();
    const token = await craftToken({ subject: w.address.toLowerCase(), issuer: "someone-else" });
    expectError(await get("/v1/memories", withBearer(token)), 401, "UNAUTHORIZED");
  });

  it("rejects an expired token", async () => {
    const w = newWallet();
    const now = nowSeconds();
    const token = await craftToken({
      subject: w.address.toLowerCase(),
      iat: now - 8 * 24 * 3600,
      exp: now - 60,
    });
    expectError(await get("/v1/memories", withBearer(token)), 401, "UNAUTHORIZED");
  });

  it("rejects an unsigned (alg none) token", async () => {
    const w = newWallet();
    const now = nowSeconds();
    const header = b64url(JSON.stringify({ alg: "none", typ: "JWT" }));
    const payload = b64url(
      JSON.stringify({ sub: w.address.toLowerCase(), iss: ISSUER, iat: now, exp: now + 3600 }),
    );
    expectError(
      await get("/v1/memories", withBearer(`${header}.${payload}.`)),
      401,
      "UNAUTHORIZED",
    );
  });
});
