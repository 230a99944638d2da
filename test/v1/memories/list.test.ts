/**
 * Reading memories: GET /v1/memories (paging, every filter, sorting), GET /v1/memories/:id,
 * GET /v1/memories/count and GET /v1/tags. Every test uses fresh wallets.
 */
import { describe, expect, it } from "vitest";
import {
  expectError,
  type Json,
  MISSING_ID,
  newWallet,
  sleep,
  uniqueText,
  type Wallet,
} from "../../helpers";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function list(w: Wallet, query = ""): Promise<Json> {
  const res = await w.get(`/v1/memories${query ? `?${query}` : ""}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const ids = (body: Json): string[] => body.memories.map((m: Json) => m.id);
const sorted = (xs: string[]) => [...xs].sort();

describe("GET /v1/memories paging", () => {
  it("defaults to limit 20 and offset 0, and total counts every match", async () => {
    const w = newWallet();
    const batch = await w.post("/v1/store/batch", {
      memories: Array.from({ length: 23 }, (_, i) => ({ content: uniqueText(`item${i}`) })),
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    expect(batch.body.count).toBe(23);
    expect(batch.body.deduplicated_count).toBe(0);

    const page = await list(w);
    expect(page.memories).toHaveLength(20);
    expect(page.total).toBe(23);
    expect(page.limit).toBe(20);
    expect(page.offset).toBe(0);

    const rest = await list(w, "offset=20");
    expect(rest.memories).toHaveLength(3);
    expect(rest.total).toBe(23);
    expect(rest.limit).toBe(20);
    expect(rest.offset).toBe(20);
    // The two pages together are exactly the stored memories, with no overlap.
    expect(sorted([...ids(page), ...ids(rest)])).toEqual(sorted(batch.body.ids));

    const beyond = await list(w, "offset=50");
    expect(beyond.memories).toEqual([]);
    expect(beyond.total).toBe(23);
    expect(beyond.offset).toBe(50);
  });

  it("applies and echoes limit and offset", async () => {
    const w = newWallet();
    const stored: string[] = [];
    for (let i = 0; i < 5; i++)
      stored.push(await w.store(uniqueText(`p${i}`), { importance: i / 10 }));

    const one = await list(w, "limit=1");
    expect(one.memories).toHaveLength(1);
    expect(one.total).toBe(5);
    expect(one.limit).toBe(1);
    expect(one.offset).toBe(0);

    // Ordered by importance ascending, limit 2 offset 1 is the 2nd and 3rd stored.
    const page = await list(w, "sort=importance&order=asc&limit=2&offset=1");
    expect(ids(page)).toEqual([stored[1], stored[2]]);
    expect(page.total).toBe(5);
    expect(page.limit).toBe(2);
    expect(page.offset).toBe(1);

    const max = await list(w, "limit=100");
    expect(max.memories).toHaveLength(5);
    expect(max.limit).toBe(100);
  });

  it("clamps a limit above 100 to 100 and reports the limit as applied", async () => {
    const w = newWallet();
    const batch = await w.post("/v1/store/batch", {
      memories: Array.from({ length: 100 }, (_, i) => ({ content: uniqueText(`many${i}`) })),
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    expect(batch.body.deduplicated_count).toBe(0);
    await w.store(uniqueText("one more"));
    // The public CLI asks for 1000 (tags, export, move, purge, snapshot).
    for (const limit of ["101", "1000", "99999999999999999999999"]) {
      const page = await list(w, `limit=${limit}`);
      expect(page.limit, limit).toBe(100);
      expect(page.memories, limit).toHaveLength(100);
      expect(page.total, limit).toBe(101);
      expect(page.offset, limit).toBe(0);
    }
    const rest = await list(w, "limit=1000&offset=100");
    expect(rest.memories).toHaveLength(1);
    expect(rest.limit).toBe(100);
    // Another wallet's memories never fill the page.
    const other = await list(newWallet(), "limit=1000");
    expect(other).toEqual({ memories: [], total: 0, limit: 100, offset: 0 });
  });

  it("rejects limit below 1 and non-numeric paging with 422", async () => {
    const w = newWallet();
    for (const q of ["limit=0", "limit=abc", "limit=1.5", "limit=-1", "limit=", "offset=-1"]) {
      const res = await w.get(`/v1/memories?${q}`);
      expect(res.status, q).toBe(422);
      expectError(res, 422, "VALIDATION_ERROR");
    }
  });

  it("lists newest first by default, each item a full memory object", async () => {
    const w = newWallet();
    const first = await w.store(uniqueText("first"), {
      importance: 0.7,
      namespace: "work",
      memory_type: "decision",
      session_id: "sess-1",
      agent_id: "agent-1",
      metadata: { source: "unit", tags: ["alpha"] },
    });
    await sleep(15);
    const second = await w.store(uniqueText("second"));
    const page = await list(w);
    expect(ids(page)).toEqual([second, first]);
    const m = page.memories[1];
    expect(m).toMatchObject({
      id: first,
      namespace: "work",
      metadata: { source: "unit", tags: ["alpha"] },
      importance: 0.7,
      memory_type: "decision",
      session_id: "sess-1",
      agent_id: "agent-1",
      pinned: false,
      expires_at: null,
      access_count: 0,
    });
    expect(m.user_id).toMatch(UUID_RE);
    for (const key of ["created_at", "updated_at", "accessed_at"]) {
      expect(Number.isNaN(Date.parse(m[key])), key).toBe(false);
    }
    expect(m).not.toHaveProperty("deleted_at");
    expect(m).not.toHaveProperty("embedding");
    // Both memories belong to the same user.
    expect(page.memories[0].user_id).toBe(m.user_id);
  });
});

describe("GET /v1/memories filters", () => {
  it("tags: comma-separated, matches memories having any of them", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), { metadata: { tags: ["red", "blue"] } });
    const b = await w.store(uniqueText("b"), { tags: ["green"] });
    const c = await w.store(uniqueText("c"), { tags: ["blue", "yellow"] });
    await w.store(uniqueText("d"));

    expect(sorted(ids(await list(w, "tags=blue")))).toEqual(sorted([a, c]));
    const anyOf = await list(w, "tags=red,green");
    expect(sorted(ids(anyOf))).toEqual(sorted([a, b]));
    expect(anyOf.total).toBe(2);
    expect(sorted(ids(await list(w, "tags=green,%20yellow")))).toEqual(sorted([b, c]));
    const none = await list(w, "tags=purple");
    expect(none.memories).toEqual([]);
    expect(none.total).toBe(0);
  });

  it("namespace, session_id, agent_id and memory_type", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), {
      namespace: "ns-a",
      session_id: "s1",
      agent_id: "bot-1",
      memory_type: "preference",
    });
    const b = await w.store(uniqueText("b"), {
      namespace: "ns-b",
      session_id: "s1",
      agent_id: "bot-2",
      memory_type: "decision",
    });
    const c = await w.store(uniqueText("c"), { session_id: "s2", memory_type: "preference" });

    expect(ids(await list(w, "namespace=ns-a"))).toEqual([a]);
    expect(ids(await list(w, "namespace=default"))).toEqual([c]);
    expect(sorted(ids(await list(w, "session_id=s1")))).toEqual(sorted([a, b]));
    expect(ids(await list(w, "agent_id=bot-2"))).toEqual([b]);
    expect(sorted(ids(await list(w, "memory_type=preference")))).toEqual(sorted([a, c]));
    const combined = await list(w, "session_id=s1&memory_type=preference");
    expect(ids(combined)).toEqual([a]);
    expect(combined.total).toBe(1);
    expect((await list(w, "namespace=nothing-here")).total).toBe(0);

    const bad = await w.get("/v1/memories?memory_type=bogus");
    expectError(bad, 422, "VALIDATION_ERROR");
  });

  it("pinned=true/false and immutable", async () => {
    const w = newWallet();
    const pinned = await w.store(uniqueText("pinned"), { pinned: true });
    const locked = await w.store(uniqueText("locked"), { immutable: true });
    const plain = await w.store(uniqueText("plain"));

    expect(ids(await list(w, "pinned=true"))).toEqual([pinned]);
    expect(sorted(ids(await list(w, "pinned=false")))).toEqual(sorted([locked, plain]));
    expect(ids(await list(w, "immutable=true"))).toEqual([locked]);
    expect(sorted(ids(await list(w, "immutable=false")))).toEqual(sorted([pinned, plain]));
    expect(ids(await list(w, "pinned=false&immutable=false"))).toEqual([plain]);

    expectError(await w.get("/v1/memories?pinned=yes"), 422, "VALIDATION_ERROR");
  });

  it("after/before and since/until bound created_at", async () => {
    const w = newWallet();
    const older = await w.store(uniqueText("older"));
    await sleep(60);
    const newer = await w.store(uniqueText("newer"));
    const tOld = Date.parse((await w.get(`/v1/memories/${older}`)).body.created_at);
    const tNew = Date.parse((await w.get(`/v1/memories/${newer}`)).body.created_at);
    expect(tNew - tOld).toBeGreaterThanOrEqual(30);
    const mid = encodeURIComponent(new Date((tOld + tNew) / 2).toISOString());
    const early = encodeURIComponent(new Date(tOld - 60_000).toISOString());
    const late = encodeURIComponent(new Date(tNew + 60_000).toISOString());

    expect(ids(await list(w, `after=${mid}`))).toEqual([newer]);
    expect(ids(await list(w, `since=${mid}`))).toEqual([newer]);
    expect(ids(await list(w, `before=${mid}`))).toEqual([older]);
    expect(ids(await list(w, `until=${mid}`))).toEqual([older]);
    expect(ids(await list(w, `after=${early}&before=${late}`))).toEqual([newer, older]);
    expect(ids(await list(w, `since=${early}&until=${mid}`))).toEqual([older]);
    expect((await list(w, `after=${late}`)).total).toBe(0);

    // Bounds are inclusive: a memory's own created_at (as shown) selects it from both sides.
    const own = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    expect(ids(await list(w, `before=${own(tOld)}`))).toEqual([older]);
    expect(ids(await list(w, `until=${own(tOld)}`))).toEqual([older]);
    expect(ids(await list(w, `after=${own(tNew)}`))).toEqual([newer]);
    expect(ids(await list(w, `after=${own(tOld)}&before=${own(tOld)}`))).toEqual([older]);

    expectError(await w.get("/v1/memories?after=yesterday"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/memories?until=2024-13-45"), 422, "VALIDATION_ERROR");
  });

  it("metadata: JSON containment; invalid JSON is 422", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), {
      metadata: { project: "apollo", owner: { team: "core", size: 3 } },
    });
    const b = await w.store(uniqueText("b"), { metadata: { project: "apollo", draft: true } });
    await w.store(uniqueText("c"), { metadata: { project: "gemini" } });

    const q = (v: unknown) => `metadata=${encodeURIComponent(JSON.stringify(v))}`;
    expect(sorted(ids(await list(w, q({ project: "apollo" }))))).toEqual(sorted([a, b]));
    expect(ids(await list(w, q({ project: "apollo", draft: true })))).toEqual([b]);
    expect(ids(await list(w, q({ owner: { team: "core" } })))).toEqual([a]);
    expect((await list(w, q({ project: "zeus" }))).total).toBe(0);
    expect((await list(w, q({}))).total).toBe(3);

    // Tags are shown inside metadata, so containment on metadata.tags matches them too.
    const tagged = await w.store(uniqueText("tagged"), {
      tags: ["blue", "green"],
      metadata: { project: "apollo" },
    });
    expect(ids(await list(w, q({ tags: ["blue"] })))).toEqual([tagged]);
    expect(ids(await list(w, q({ tags: ["green", "blue"], project: "apollo" })))).toEqual([tagged]);
    expect((await list(w, q({ tags: ["blue", "red"] }))).total).toBe(0);
    expect((await list(w, q({ tags: "blue" }))).total).toBe(0);
    expect((await list(w, q({ tags: [] }))).total).toBe(4);

    for (const bad of ["%7Bnot-json", "%5B1%2C2%5D", "42"]) {
      const res = await w.get(`/v1/memories?metadata=${bad}`);
      expectError(res, 422, "VALIDATION_ERROR");
    }
  });

  it("sort and order", async () => {
    const w = newWallet();
    const mid = await w.store(uniqueText("mid"), { importance: 0.5 });
    await sleep(10);
    const high = await w.store(uniqueText("high"), { importance: 0.9 });
    await sleep(10);
    const low = await w.store(uniqueText("low"), { importance: 0.1 });

    expect(ids(await list(w, "sort=importance&order=desc"))).toEqual([high, mid, low]);
    expect(ids(await list(w, "sort=importance&order=asc"))).toEqual([low, mid, high]);
    expect(ids(await list(w, "sort=created_at&order=asc"))).toEqual([mid, high, low]);
    expect(ids(await list(w, "order=asc"))).toEqual([mid, high, low]);
    expect(ids(await list(w, "sort=created_at"))).toEqual([low, high, mid]);

    expectError(await w.get("/v1/memories?sort=content"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/memories?order=sideways"), 422, "VALIDATION_ERROR");
  });

  it("excludes soft-deleted memories from list and total", async () => {
    const w = newWallet();
    const keep = await w.store(uniqueText("keep"), { tags: ["t"] });
    const gone = await w.store(uniqueText("gone"), { tags: ["t"] });
    expect((await list(w)).total).toBe(2);
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const page = await list(w);
    expect(ids(page)).toEqual([keep]);
    expect(page.total).toBe(1);
    expect(ids(await list(w, "tags=t"))).toEqual([keep]);
  });

  it("excludes expired memories everywhere (list, get, count, tags)", async () => {
    const w = newWallet();
    const soon = await w.store(uniqueText("soon"), {
      tags: ["ephemeral"],
      expires_at: new Date(Date.now() + 2000).toISOString(),
    });
    const stays = await w.store(uniqueText("stays"), {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const before = await list(w);
    expect(sorted(ids(before))).toEqual(sorted([soon, stays]));

    await sleep(2500);

    const after = await list(w);
    expect(ids(after)).toEqual([stays]);
    expect(after.total).toBe(1);
    expectError(await w.get(`/v1/memories/${soon}`), 404, "NOT_FOUND");
    expect((await w.get("/v1/memories/count")).body).toEqual({ count: 1 });
    expect((await w.get("/v1/tags")).body).toEqual({ tags: [] });
  });

  it("never shows another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    await a.store(uniqueText("secret"), { tags: ["shared-tag"], namespace: "ns" });
    const mine = await b.store(uniqueText("mine"));

    const page = await list(b);
    expect(ids(page)).toEqual([mine]);
    expect(page.total).toBe(1);
    expect((await list(b, "tags=shared-tag")).total).toBe(0);
    expect((await list(b, "namespace=ns")).total).toBe(0);
    expect((await b.get("/v1/memories/count")).body).toEqual({ count: 1 });
    expect((await b.get("/v1/tags")).body).toEqual({ tags: [] });
    const fresh = newWallet();
    expect(await list(fresh)).toEqual({ memories: [], total: 0, limit: 20, offset: 0 });
  });
});

describe("GET /v1/memories/:id", () => {
  it("returns the full memory object", async () => {
    const w = newWallet();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const id = await w.store(uniqueText("full"), {
      namespace: "proj",
      metadata: { k: "v", nested: { n: 1 } },
      tags: ["x", "y"],
      importance: 0.8,
      memory_type: "project",
      session_id: "sess",
      agent_id: "agent",
      expires_at: expiresAt,
      pinned: true,
      immutable: true,
    });
    const res = await w.get(`/v1/memories/${id}`);
    expect(res.status).toBe(200);
    const m = res.body;
    for (const key of [
      "id",
      "user_id",
      "namespace",
      "content",
      "embedding_model",
      "metadata",
      "importance",
      "memory_type",
      "session_id",
      "agent_id",
      "created_at",
      "updated_at",
      "accessed_at",
      "access_count",
      "expires_at",
      "pinned",
      "immutable",
    ]) {
      expect(m, key).toHaveProperty(key);
    }
    expect(m).toMatchObject({
      id,
      namespace: "proj",
      metadata: { k: "v", nested: { n: 1 }, tags: ["x", "y"] },
      importance: 0.8,
      memory_type: "project",
      session_id: "sess",
      agent_id: "agent",
      access_count: 0,
      expires_at: expiresAt,
      pinned: true,
      immutable: true,
    });
    expect(m.content.startsWith("full ")).toBe(true);
    expect(m.user_id).toMatch(UUID_RE);
    expect(typeof m.embedding_model).toBe("string");
    expect(m.embedding_model.length).toBeGreaterThan(0);
    expect(m.created_at).toBe(m.updated_at);
    expect(Math.abs(Date.parse(m.created_at) - Date.now())).toBeLessThan(60_000);
    expect(m).not.toHaveProperty("embedding");
    expect(m).not.toHaveProperty("deleted_at");

    // Same object as in the list.
    const listed = (await list(w)).memories[0];
    expect(listed.id).toBe(id);
    expect(listed.user_id).toBe(m.user_id);
  });

  it("applies the documented defaults", async () => {
    const w = newWallet();
    const content = uniqueText("defaults");
    const id = await w.store(content);
    const m = (await w.get(`/v1/memories/${id}`)).body;
    expect(m).toMatchObject({
      id,
      content,
      namespace: "default",
      metadata: {},
      importance: 0.5,
      memory_type: "general",
      session_id: null,
      agent_id: null,
      expires_at: null,
      pinned: false,
      immutable: false,
      access_count: 0,
    });
  });

  it("404 for unknown, deleted and another wallet's; 422 for a non-UUID", async () => {
    const a = newWallet();
    const b = newWallet();
    const id = await a.store(uniqueText("owned"));
    const gone = await a.store(uniqueText("gone"));
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);

    expectError(await a.get(`/v1/memories/${MISSING_ID}`), 404, "NOT_FOUND");
    expectError(await a.get(`/v1/memories/${gone}`), 404, "NOT_FOUND");
    expectError(await b.get(`/v1/memories/${id}`), 404, "NOT_FOUND");
    expectError(await a.get("/v1/memories/not-a-uuid"), 422, "VALIDATION_ERROR");
    expectError(await a.get("/v1/memories/12345"), 422, "VALIDATION_ERROR");
    // The owner still sees it.
    expect((await a.get(`/v1/memories/${id}`)).status).toBe(200);
  });
});

describe("GET /v1/memories/count", () => {
  it("returns {count} with the list filters applied", async () => {
    const w = newWallet();
    await w.store(uniqueText("a"), { namespace: "n1", tags: ["t1"], memory_type: "decision" });
    await w.store(uniqueText("b"), { namespace: "n1", pinned: true });
    await w.store(uniqueText("c"), { namespace: "n2", tags: ["t1", "t2"] });
    const gone = await w.store(uniqueText("d"), { namespace: "n1", tags: ["t1"] });
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const count = async (q = "") => {
      const res = await w.get(`/v1/memories/count${q ? `?${q}` : ""}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    expect(await count()).toEqual({ count: 3 });
    expect(await count("namespace=n1")).toEqual({ count: 2 });
    expect(await count("tags=t1")).toEqual({ count: 2 });
    expect(await count("tags=t2,missing")).toEqual({ count: 1 });
    expect(await count("pinned=true")).toEqual({ count: 1 });
    expect(await count("memory_type=decision")).toEqual({ count: 1 });
    expect(await count("namespace=n2&tags=t1")).toEqual({ count: 1 });
    expect(await count("namespace=zzz")).toEqual({ count: 0 });
    expectError(await w.get("/v1/memories/count?pinned=maybe"), 422, "VALIDATION_ERROR");
  });
});

describe("GET /v1/tags", () => {
  it("tallies tags of live memories, most used first", async () => {
    const w = newWallet();
    await w.store(uniqueText("a"), { tags: ["common", "beta"], namespace: "one" });
    await w.store(uniqueText("b"), { metadata: { tags: ["common", "alpha"] }, namespace: "one" });
    await w.store(uniqueText("c"), { tags: ["common"], namespace: "two" });
    await w.store(uniqueText("d"));
    const gone = await w.store(uniqueText("e"), { tags: ["deleted-only", "common"] });
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const res = await w.get("/v1/tags");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tags: [
        { tag: "common", count: 3 },
        { tag: "alpha", count: 1 },
        { tag: "beta", count: 1 },
      ],
    });

    const one = await w.get("/v1/tags?namespace=one");
    expect(one.body).toEqual({
      tags: [
        { tag: "common", count: 2 },
        { tag: "alpha", count: 1 },
        { tag: "beta", count: 1 },
      ],
    });
    expect((await w.get("/v1/tags?namespace=none")).body).toEqual({ tags: [] });
  });
});
