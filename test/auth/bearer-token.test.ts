/** Session tokens as `Authorization: Bearer`: the wallet's data, and every forged token refused. */
import { describe, expect, it } from "vitest";
import { expectError, newWallet, nowSeconds, request } from "../helpers";
import { b64url, craftToken, flipChar, get, ISSUER, sessionToken, withBearer } from "./fixtures";

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
