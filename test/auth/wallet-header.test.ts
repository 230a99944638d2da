/** The x-wallet-auth header: a signed timestamp, within 300 seconds, of the wallet that sends it. */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { expectError, newWallet, nowSeconds, request, signAuth } from "../helpers";
import { contentsOf, get, highSTwin, signed, withBearer, withHeader } from "./fixtures";

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

  it("refuses the high-s twin of a valid signature (EIP-2 low s), and still takes the original", async () => {
    const w = newWallet();
    const { address, ts, signature } = await signed(w.account);
    const twin = await get("/v1/memories", withHeader(`${address}:${ts}:${highSTwin(signature)}`));
    const error = expectError(twin, 401, "UNAUTHORIZED");
    expect(error.message).toMatch(/EIP-2/);
    const res = await get("/v1/memories", withHeader(`${address}:${ts}:${signature}`));
    expect(res.status).toBe(200);
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
