/**
 * POST /v1/store: the 201 answer, every field with its default or given value, tags from both
 * places, and wallet isolation.
 */
import { describe, expect, it } from "vitest";
import { CURRENT_FACT, MEMORY_DEFAULTS } from "../../fixtures";
import { expectError, newWallet, UUID, uniqueText } from "../../helpers";
import { inHours } from "./fixtures";

describe("POST /v1/store", () => {
  it("stores a memory and answers 201 with id, stored, deduplicated and tokens_used", async () => {
    const w = newWallet();
    const res = await w.post("/v1/store", { content: "The staging database runs Postgres 16" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      stored: true,
      deduplicated: false,
      tokens_used: expect.any(Number),
      memory: expect.any(Object),
    });
    expect(Number.isInteger(res.body.tokens_used)).toBe(true);
    expect(res.body.tokens_used).toBeGreaterThan(0);
    expect(await w.memoryCount()).toBe(1);
  });

  it("also answers with the stored memory as `memory`, as GET /v1/memories/:id shows it", async () => {
    const w = newWallet();
    const res = await w.post("/v1/store", {
      content: "The release train leaves on Thursdays",
      tags: ["release"],
      metadata: { source: "unit" },
      importance: 0.8,
      namespace: "ops",
      memory_type: "decision",
      session_id: "s-9",
    });
    expect(res.status).toBe(201);
    const got = await w.get(`/v1/memories/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(res.body.memory).toEqual(got.body);
    expect(res.body.memory).toMatchObject({
      id: res.body.id,
      content: "The release train leaves on Thursdays",
      tags: ["release"],
      metadata: { source: "unit", tags: ["release"] },
      importance: 0.8,
      namespace: "ops",
      memory_type: "decision",
      session_id: "s-9",
      // The spec's nulls stay nulls.
      agent_id: null,
      expires_at: null,
      access_count: 0,
    });
  });

  it("stores every field with its defaults", async () => {
    const w = newWallet();
    const before = Date.now();
    const id = await w.store("Defaults are applied to every omitted field");
    const res = await w.get(`/v1/memories/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      content: "Defaults are applied to every omitted field",
      embedding_model: "local-lexical-v1",
      ...MEMORY_DEFAULTS,
      ...CURRENT_FACT,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      accessed_at: expect.any(String),
      access_count: 0,
      created_by: w.address.toLowerCase(),
    });
    const created = Date.parse(res.body.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 5000);
    expect(created).toBeLessThanOrEqual(Date.now() + 5000);
  });

  it("stores every field that is given", async () => {
    const w = newWallet();
    const expires = inHours(24);
    // Each of these is stored and read back as given.
    const fields = {
      metadata: { source: "unit", nested: { level: 2 } },
      importance: 0.8,
      namespace: "project-x",
      memory_type: "decision",
      session_id: "session-1",
      agent_id: "agent-7",
      pinned: true,
      immutable: true,
    };
    const content = "All fields are given explicitly";
    const id = await w.store(content, { ...fields, expires_at: expires });
    const got = await w.getMemory(id);
    expect(got).toMatchObject({ id, content, ...fields, tags: [], access_count: 0 });
    expect(Date.parse(got.expires_at)).toBe(Date.parse(expires));
  });

  it("merges top-level tags and metadata.tags, top-level first, without repeats", async () => {
    const w = newWallet();
    const id = await w.store("Tags come from two places", {
      tags: ["alpha", "beta"],
      metadata: { tags: ["beta", "gamma"], source: "cli" },
    });
    const res = await w.get(`/v1/memories/${id}`);
    expect(res.body.tags).toEqual(["alpha", "beta", "gamma"]);
    expect(res.body.metadata).toEqual({ source: "cli", tags: ["alpha", "beta", "gamma"] });

    const onlyMeta = await w.store(uniqueText(), { metadata: { tags: ["solo"] } });
    expect((await w.get(`/v1/memories/${onlyMeta}`)).body.tags).toEqual(["solo"]);
    const onlyTop = await w.store(uniqueText(), { tags: ["top"] });
    const top = await w.get(`/v1/memories/${onlyTop}`);
    expect(top.body.tags).toEqual(["top"]);
    expect(top.body.metadata).toEqual({ tags: ["top"] });
  });

  it("accepts every memory type", async () => {
    const w = newWallet();
    for (const type of ["correction", "preference", "decision", "project", "observation"]) {
      const id = await w.store(uniqueText(type), { memory_type: type });
      expect((await w.get(`/v1/memories/${id}`)).body.memory_type).toBe(type);
    }
  });

  it("is not visible to another wallet", async () => {
    const a = newWallet();
    const b = newWallet();
    const id = await a.store("Only wallet A may read this");
    expectError(await b.get(`/v1/memories/${id}`), 404, "NOT_FOUND");
    expect(await b.memoryCount()).toBe(0);
    const list = await b.get("/v1/memories");
    expect(list.body.total).toBe(0);
    expect(list.body.memories).toEqual([]);
  });
});
