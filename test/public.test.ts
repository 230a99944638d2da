import { describe, expect, it } from "vitest";
import { BGE_MODEL, bgeFetch } from "./bge-worker";
import { expectError, issuePaths, newWallet, request, uniqueText } from "./helpers";

describe("GET /health", () => {
  it("answers 200 with status ok and needs no auth", async () => {
    const res = await request("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body.status).toBe("ok");
  });

  it("reports the embedder and the model stored with each vector", async () => {
    const lexical = await request("GET", "/health");
    expect(lexical.body).toEqual({
      status: "ok",
      database: "ok",
      embedder: { provider: "local", model: "local-lexical-v1" },
      // The suite's Worker takes no payments (no X402_PAY_TO): test/payment/settings.test.ts.
      payments: { status: "off", network: "eip155:8453" },
    });
    const bge = await request("GET", "/health", { fetch: bgeFetch });
    expect(bge.body.embedder).toEqual({ provider: "openai", model: BGE_MODEL });
  });
});

describe("GET /v1/free-tier/info", () => {
  const EXPECTED = {
    free_tier: {
      enabled: true,
      calls_per_wallet: 100,
      description: expect.any(String),
    },
    auth: {
      header: "x-wallet-auth",
      format: expect.any(String),
      message_to_sign: "service-auth:{unix_timestamp}",
      expiry_seconds: 300,
    },
    after_free_tier: {
      payment: expect.any(String),
      note: expect.any(String),
    },
  };

  it("answers without auth with exactly the documented shape", async () => {
    const res = await request("GET", "/v1/free-tier/info");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EXPECTED);
    expect(res.body.free_tier.description.length).toBeGreaterThan(0);
    expect(res.body.after_free_tier.payment.length).toBeGreaterThan(0);
    expect(res.body.after_free_tier.note.length).toBeGreaterThan(0);
    expect(res.body.auth.format).toContain("{unix_timestamp}");
  });

  it("is cacheable: Cache-Control public with a max-age", async () => {
    const res = await request("GET", "/v1/free-tier/info");
    const cacheControl = res.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/\bpublic\b/);
    const maxAge = cacheControl.match(/\bmax-age=(\d+)\b/);
    expect(maxAge).not.toBeNull();
    expect(Number(maxAge?.[1])).toBeGreaterThan(0);
  });

  it("answers the same body and headers on a second call, and to a signed caller", async () => {
    const first = await request("GET", "/v1/free-tier/info");
    const second = await request("GET", "/v1/free-tier/info");
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(second.headers.get("content-type")).toMatch(/^application\/json/);

    const w = newWallet();
    const signed = await w.get("/v1/free-tier/info");
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual(first.body);
  });

  it("ignores a bad auth header (the endpoint is public)", async () => {
    const res = await request("GET", "/v1/free-tier/info", {
      headers: { "x-wallet-auth": "garbage", authorization: "Bearer nope" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EXPECTED);
  });
});

describe("POST /v1/import", () => {
  it("imports memories and answers 201 with imported and skipped", async () => {
    const w = newWallet();
    const memories = [
      { content: uniqueText("one"), importance: 0.9, tags: ["imported"] },
      { content: uniqueText("two"), namespace: "archive", memory_type: "decision" },
      { content: uniqueText("three"), metadata: { source: "export" } },
    ];
    const res = await w.post("/v1/import", { memories });
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(3);
    expect(res.body.skipped).toBe(0);
    expect(await w.memoryCount()).toBe(3);

    const list = await w.get("/v1/memories?limit=100");
    const byContent = new Map(
      (list.body.memories as Array<{ content: string }>).map((m) => [m.content, m]),
    );
    expect(byContent.get(memories[0]?.content ?? "")).toMatchObject({
      importance: 0.9,
      tags: ["imported"],
    });
    expect(byContent.get(memories[1]?.content ?? "")).toMatchObject({
      namespace: "archive",
      memory_type: "decision",
    });
    expect(byContent.get(memories[2]?.content ?? "")).toMatchObject({
      metadata: { source: "export" },
    });
  });

  it("skips every memory on a second import of the same memories", async () => {
    const w = newWallet();
    const memories = [
      { content: uniqueText("a") },
      { content: uniqueText("b") },
      { content: uniqueText("c"), namespace: "other" },
      { content: uniqueText("d") },
    ];
    const first = await w.post("/v1/import", { memories });
    expect(first.status).toBe(201);
    expect(first.body.imported).toBe(4);
    expect(first.body.skipped).toBe(0);

    const again = await w.post("/v1/import", { memories });
    expect(again.status).toBe(201);
    expect(again.body.imported).toBe(0);
    expect(again.body.skipped).toBe(4);
    expect(await w.memoryCount()).toBe(4);
  });

  it("imports the new memories of a partly known set and skips the rest", async () => {
    const w = newWallet();
    const known = { content: uniqueText("known") };
    await w.post("/v1/import", { memories: [known] });
    const res = await w.post("/v1/import", {
      memories: [known, { content: uniqueText("fresh1") }, { content: uniqueText("fresh2") }],
    });
    expect(res.body.imported).toBe(2);
    expect(res.body.skipped).toBe(1);
    expect(await w.memoryCount()).toBe(3);
  });

  it("counts a duplicate inside one import as skipped", async () => {
    const w = newWallet();
    const text = uniqueText("twice");
    const res = await w.post("/v1/import", { memories: [{ content: text }, { content: text }] });
    expect(res.body.imported).toBe(1);
    expect(res.body.skipped).toBe(1);
    expect(await w.memoryCount()).toBe(1);
  });

  it("accepts more than the 100 items of batch store", async () => {
    const w = newWallet();
    const memories = Array.from({ length: 150 }, () => ({ content: uniqueText() }));
    const res = await w.post("/v1/import", { memories });
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(150);
    expect(await w.memoryCount()).toBe(150);
  });

  it("never skips because of another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    const memories = [{ content: uniqueText("x") }, { content: uniqueText("y") }];
    await a.post("/v1/import", { memories });
    const res = await b.post("/v1/import", { memories });
    expect(res.body.imported).toBe(2);
    expect(res.body.skipped).toBe(0);
    expect(await a.memoryCount()).toBe(2);
    expect(await b.memoryCount()).toBe(2);
  });

  it("rejects an empty list or an invalid item with 422 and imports nothing", async () => {
    const w = newWallet();
    expectError(await w.post("/v1/import", { memories: [] }), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/import", {}), 422, "VALIDATION_ERROR");
    const bad = await w.post("/v1/import", {
      memories: [{ content: uniqueText() }, { content: "" }],
    });
    expectError(bad, 422, "VALIDATION_ERROR");
    expect(issuePaths(bad)).toEqual(["memories.1.content"]);
    expect(await w.memoryCount()).toBe(0);
  });

  it("requires wallet auth", async () => {
    const res = await request("POST", "/v1/import", { body: { memories: [{ content: "x" }] } });
    expectError(res, 401, "UNAUTHORIZED");
  });
});
