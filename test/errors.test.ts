import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../worker/app";
import {
  type ApiResponse,
  expectError,
  issuePaths,
  MISSING_ID,
  newWallet,
  request,
} from "./helpers";

describe("unknown routes", () => {
  it("answers 404 NOT_FOUND in JSON for an unknown path", async () => {
    const w = newWallet();
    for (const path of ["/v1/nope", "/v2/memories", "/v1/memories/core/extra/deep/path"]) {
      const res = await w.get(path);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expectError(res, 404, "NOT_FOUND");
    }
    // Outside /v1 no identity is needed to learn that a path does not exist.
    const anonymous = await request("GET", "/nope");
    expect(anonymous.headers.get("content-type")).toMatch(/^application\/json/);
    expectError(anonymous, 404, "NOT_FOUND");
    expectError(await request("GET", "/"), 404, "NOT_FOUND");
    expectError(await request("POST", "/does/not/exist", { body: { a: 1 } }), 404, "NOT_FOUND");
  });

  it("answers an unknown /v1 path without auth in JSON (401: identity is checked first)", async () => {
    const res = await request("GET", "/v1/nope");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("answers 404 NOT_FOUND in JSON for an unknown method on a known path", async () => {
    const w = newWallet();
    for (const [method, path] of [
      ["PUT", "/v1/memories"],
      ["PUT", "/v1/store"],
      ["GET", "/v1/store"],
      ["DELETE", "/health"],
      ["POST", "/v1/free-tier/info"],
      ["GET", "/auth/session"],
    ] as const) {
      const res = await w.call(method, path);
      expect(res.headers.get("content-type"), `${method} ${path}`).toMatch(/^application\/json/);
      expectError(res, 404, "NOT_FOUND");
    }
  });
});

describe("request bodies", () => {
  it("answers 422 VALIDATION_ERROR for malformed JSON", async () => {
    const w = newWallet();
    for (const raw of ['{"content": "unterminated', "{content: 'x'}", "not json at all", "[1,2"]) {
      const res = await w.raw("POST", "/v1/store", raw);
      expect(res.status, raw).toBe(422);
      expectError(res, 422, "VALIDATION_ERROR");
    }
    const batch = await w.raw("POST", "/v1/store/batch", "{");
    expectError(batch, 422, "VALIDATION_ERROR");
    const session = await request("POST", "/auth/session", {
      rawBody: "{]",
      headers: { "content-type": "application/json" },
    });
    expectError(session, 422, "VALIDATION_ERROR");
    const count = await w.get("/v1/memories/count");
    expect(count.body.count).toBe(0);
  });

  it("answers 422 when a JSON endpoint gets no body or a non-object body", async () => {
    const w = newWallet();
    expectError(await w.raw("POST", "/v1/store", undefined, {}), 422, "VALIDATION_ERROR");
    expectError(await w.raw("POST", "/v1/store", ""), 422, "VALIDATION_ERROR");
    expectError(await w.raw("POST", "/v1/store", "[]"), 422, "VALIDATION_ERROR");
    expectError(await w.raw("POST", "/v1/store", '"just a string"'), 422, "VALIDATION_ERROR");
  });

  it("accepts a JSON body sent without a Content-Type header", async () => {
    const w = newWallet();
    const res = await w.raw(
      "POST",
      "/v1/store",
      JSON.stringify({ content: "no content type" }),
      {},
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const got = await w.get(`/v1/memories/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.content).toBe("no content type");
  });

  it("accepts a JSON body sent as text/plain or form-encoded", async () => {
    const w = newWallet();
    // text/plain, and curl's default form type.
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const body = JSON.stringify({ content: `sent as ${type}` });
      const res = await w.raw("POST", "/v1/store", body, { "content-type": type });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    expect((await w.get("/v1/memories/count")).body.count).toBe(2);
  });

  it("accepts GET and DELETE with Content-Type: application/json and no body (the CLI)", async () => {
    const w = newWallet();
    const id = await w.store("cli style requests");

    const one = await w.raw("GET", `/v1/memories/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(id);

    const list = await w.raw("GET", "/v1/memories");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);

    const deleted = await w.raw("DELETE", `/v1/memories/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, id });

    const gone = await w.raw("GET", `/v1/memories/${id}`);
    expectError(gone, 404, "NOT_FOUND");
  });

  it("refuses NUL characters in content or metadata with 422, not 500", async () => {
    const w = newWallet();
    const bodies: unknown[] = [
      { content: "before\u0000after" },
      { content: "fine", metadata: { note: "nul\u0000inside" } },
      { content: "fine", metadata: { "key\u0000": "value" } },
      { content: "fine", tags: ["t\u0000g"] },
      { content: "fine", namespace: "ns\u0000" },
    ];
    for (const body of bodies) {
      const res = await w.post("/v1/store", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expectError(res, 422, "VALIDATION_ERROR");
    }
    const batch = await w.post("/v1/store/batch", {
      memories: [{ content: "ok" }, { content: "bad\u0000" }],
    });
    expectError(batch, 422, "VALIDATION_ERROR");

    // A literal backslash followed by "u0000" is text, not a NUL: it is stored as is.
    const escaped = await w.post("/v1/store", { content: "a literal \\u0000 in text" });
    expect(escaped.status, JSON.stringify(escaped.body)).toBe(201);
    const got = await w.get(`/v1/memories/${escaped.body.id}`);
    expect(got.body.content).toBe("a literal \\u0000 in text");
    expect((await w.get("/v1/memories/count")).body.count).toBe(1);
  });

  it("refuses a raw NUL byte in the body with 422", async () => {
    const w = newWallet();
    const res = await w.raw("POST", "/v1/store", '{"content": "raw\u0000nul"}');
    expectError(res, 422, "VALIDATION_ERROR");
  });
});

describe("path parameters", () => {
  it("answers 422 for an id that is not a UUID", async () => {
    const w = newWallet();
    for (const bad of ["not-a-uuid", "123", "00000000-0000-4000-8000-00000000000"]) {
      expectError(await w.get(`/v1/memories/${bad}`), 422, "VALIDATION_ERROR");
      expectError(await w.del(`/v1/memories/${bad}`), 422, "VALIDATION_ERROR");
      expectError(
        await w.patch(`/v1/memories/${bad}`, { importance: 0.4 }),
        422,
        "VALIDATION_ERROR",
      );
    }
    const res = await w.get("/v1/memories/not-a-uuid");
    expect(issuePaths(res)).toEqual(["id"]);
  });

  it("answers 404 for a well-formed id that does not exist", async () => {
    const w = newWallet();
    expectError(await w.get(`/v1/memories/${MISSING_ID}`), 404, "NOT_FOUND");
    expectError(await w.del(`/v1/memories/${MISSING_ID}`), 404, "NOT_FOUND");
  });
});

describe("error bodies", () => {
  it("carry code, message and request_id, and the request id header matches", async () => {
    const w = newWallet();
    const responses = [
      await request("GET", "/v1/memories"),
      await w.get("/v1/unknown"),
      await w.get("/v1/memories/not-a-uuid"),
      await w.get(`/v1/memories/${MISSING_ID}`),
      await w.post("/v1/store", { content: "" }),
    ];
    const ids = new Set<string>();
    for (const res of responses) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      const error = res.body.error;
      expect(typeof error.code).toBe("string");
      expect(typeof error.message).toBe("string");
      expect(error.message.length).toBeGreaterThan(0);
      expect(typeof error.request_id).toBe("string");
      expect(error.request_id.length).toBeGreaterThan(0);
      expect(res.headers.get("x-request-id")).toBe(error.request_id);
      ids.add(error.request_id);
    }
    expect(ids.size).toBe(responses.length);
    expect(responses.map((r) => r.body.error.code)).toEqual([
      "UNAUTHORIZED",
      "NOT_FOUND",
      "VALIDATION_ERROR",
      "NOT_FOUND",
      "VALIDATION_ERROR",
    ]);
  });

  it("a zod 422 lists every failing field as a dotted path in details.issues", async () => {
    const w = newWallet();
    const batch = await w.post("/v1/store/batch", {
      memories: [{ content: "one" }, { content: "two" }, { importance: 0.3 }],
    });
    expectError(batch, 422, "VALIDATION_ERROR");
    expect(issuePaths(batch)).toEqual(["memories.2.content"]);
    for (const issue of batch.body.error.details.issues) {
      expect(typeof issue.message).toBe("string");
    }

    const many = await w.post("/v1/store", {
      content: "x",
      importance: 2,
      memory_type: "bogus",
      metadata: { tags: ["ok", "y".repeat(65)] },
    });
    expectError(many, 422, "VALIDATION_ERROR");
    expect(issuePaths(many).sort()).toEqual(["importance", "memory_type", "metadata.tags.1"]);

    const nested = await w.post("/v1/store/batch", {
      memories: [{ content: "fine" }, { content: "fine too", tags: ["a", ""] }],
    });
    expectError(nested, 422, "VALIDATION_ERROR");
    expect(issuePaths(nested)).toEqual(["memories.1.tags.1"]);

    expect((await w.get("/v1/memories/count")).body.count).toBe(0);
  });

  it("every response is JSON, errors included", async () => {
    const w = newWallet();
    const id = await w.store("json everywhere");
    const responses: ApiResponse[] = [
      await request("GET", "/health"),
      await request("GET", "/v1/free-tier/info"),
      await request("GET", "/nothing-here"),
      await request("OPTIONS", "/v1/memories"),
      await request("HEAD", "/nope"),
      await w.get(`/v1/memories/${id}`),
      await w.get("/v1/memories/%ZZ"),
      await w.raw("POST", "/v1/store", "{{{"),
      await request("POST", "/auth/session", { body: { address: "x" } }),
    ];
    for (const [i, res] of responses.entries()) {
      expect(res.status, `response ${i}`).toBeLessThan(500);
      if (i === 4) continue; // HEAD has no body by definition; its headers are checked below.
      expect(typeof res.body, `response ${i}: ${String(res.body)}`).toBe("object");
      expect(res.headers.get("content-type"), `response ${i}`).toMatch(/^application\/json/);
    }
    expect(responses[4]?.status).toBe(404);
  });
});

describe("values thrown that are not errors", () => {
  // Hono hands only Error instances to onError; the database driver rejects with its socket's
  // "error" Event when a connection drops while it is being opened (a database stopped
  // mid-request), and that reached the runtime as an uncaught exception: an HTML 500 page.
  const appThrowing = (value: unknown) => {
    const app = createApp();
    app.get("/thrown", () => {
      throw value;
    });
    return (path: string) => {
      const ctx = createExecutionContext();
      return app.fetch(new Request(`http://memory.test${path}`), env, ctx);
    };
  };

  it.each([
    ["a socket's error Event", new Event("error"), 503, "SERVICE_UNAVAILABLE"],
    ["a socket's close Event", new Event("close"), 503, "SERVICE_UNAVAILABLE"],
    ["a string", "boom", 500, "INTERNAL_ERROR"],
    ["a plain object", { reason: "x" }, 500, "INTERNAL_ERROR"],
  ])("%s gets the JSON error body", async (_name, value, status, code) => {
    const res = await appThrowing(value)("/thrown");
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe(code);
    expect(typeof body.error.request_id).toBe("string");
  });
});
