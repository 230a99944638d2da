import { describe, expect, it } from "vitest";
import { type ApiResponse, expectError, newWallet, type Wallet } from "../helpers";

const issuePaths = (res: ApiResponse) =>
  (res.body.error.details.issues as Array<{ path: string }>).map((i) => i.path);

/** Text that shares no words with any other call's text, so it never deduplicates. */
const unique = (label = "note") => `${label} ${crypto.randomUUID()} ${crypto.randomUUID()}`;

const count = async (w: Wallet): Promise<number> => {
  const res = await w.get("/v1/memories/count");
  if (res.status !== 200) throw new Error(`count failed: ${res.status}`);
  return res.body.count as number;
};

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

/** Metadata whose JSON is exactly `bytes` long: {"k":"xxx..."} has 8 bytes of overhead. */
const metadataOfBytes = (bytes: number) => ({ k: "x".repeat(bytes - 8) });

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const tagList = (n: number, prefix = "t") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("POST /v1/store", () => {
  it("stores a memory and answers 201 with id, stored, deduplicated and tokens_used", async () => {
    const w = newWallet();
    const res = await w.post("/v1/store", { content: "The staging database runs Postgres 16" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      "deduplicated",
      "id",
      "memory",
      "stored",
      "tokens_used",
    ]);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(res.body.stored).toBe(true);
    expect(res.body.deduplicated).toBe(false);
    expect(Number.isInteger(res.body.tokens_used)).toBe(true);
    expect(res.body.tokens_used).toBeGreaterThan(0);
    expect(await count(w)).toBe(1);
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
      namespace: "default",
      content: "Defaults are applied to every omitted field",
      embedding_model: "local-lexical-v1",
      metadata: {},
      tags: [],
      importance: 0.5,
      memory_type: "general",
      session_id: null,
      agent_id: null,
      pinned: false,
      immutable: false,
      expires_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      accessed_at: expect.any(String),
      access_count: 0,
    });
    const created = Date.parse(res.body.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 5000);
    expect(created).toBeLessThanOrEqual(Date.now() + 5000);
  });

  it("stores every field that is given", async () => {
    const w = newWallet();
    const expires = inHours(24);
    const id = await w.store("All fields are given explicitly", {
      metadata: { source: "unit", nested: { level: 2 } },
      importance: 0.8,
      namespace: "project-x",
      memory_type: "decision",
      session_id: "session-1",
      agent_id: "agent-7",
      expires_at: expires,
      pinned: true,
      immutable: true,
    });
    const res = await w.get(`/v1/memories/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      namespace: "project-x",
      content: "All fields are given explicitly",
      metadata: { source: "unit", nested: { level: 2 } },
      tags: [],
      importance: 0.8,
      memory_type: "decision",
      session_id: "session-1",
      agent_id: "agent-7",
      pinned: true,
      immutable: true,
      access_count: 0,
    });
    expect(Date.parse(res.body.expires_at)).toBe(Date.parse(expires));
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

    const onlyMeta = await w.store(unique(), { metadata: { tags: ["solo"] } });
    expect((await w.get(`/v1/memories/${onlyMeta}`)).body.tags).toEqual(["solo"]);
    const onlyTop = await w.store(unique(), { tags: ["top"] });
    const top = await w.get(`/v1/memories/${onlyTop}`);
    expect(top.body.tags).toEqual(["top"]);
    expect(top.body.metadata).toEqual({ tags: ["top"] });
  });

  it("accepts every memory type", async () => {
    const w = newWallet();
    for (const type of ["correction", "preference", "decision", "project", "observation"]) {
      const id = await w.store(unique(type), { memory_type: type });
      expect((await w.get(`/v1/memories/${id}`)).body.memory_type).toBe(type);
    }
  });

  it("is not visible to another wallet", async () => {
    const a = newWallet();
    const b = newWallet();
    const id = await a.store("Only wallet A may read this");
    expectError(await b.get(`/v1/memories/${id}`), 404, "NOT_FOUND");
    expect(await count(b)).toBe(0);
    const list = await b.get("/v1/memories");
    expect(list.body.total).toBe(0);
    expect(list.body.memories).toEqual([]);
  });
});

describe("POST /v1/store limits", () => {
  const rejected: Array<[string, Record<string, unknown>, string]> = [
    ["content of 8,193 characters", { content: "x".repeat(8193) }, "content"],
    ["empty content", { content: "" }, "content"],
    ["whitespace-only content", { content: "   \n\t " }, "content"],
    ["missing content", { content: undefined }, "content"],
    ["non-string content", { content: 42 }, "content"],
    ["metadata over 4 KB", { metadata: metadataOfBytes(4097) }, "metadata"],
    ["metadata of 5,000 bytes", { metadata: { big: "y".repeat(5000) } }, "metadata"],
    ["metadata with 21 keys", { metadata: keys(21) }, "metadata"],
    ["metadata 4 levels deep", { metadata: { a: { b: { c: { d: 1 } } } } }, "metadata"],
    ["metadata 4 levels deep through an array", { metadata: { a: { b: [[1]] } } }, "metadata"],
    ["metadata that is an array", { metadata: ["a"] }, "metadata"],
    ["11 top-level tags", { tags: tagList(11) }, "tags"],
    ["11 metadata.tags", { metadata: { tags: tagList(11) } }, "metadata.tags"],
    [
      "6 + 6 distinct tags from both places",
      { tags: tagList(6, "a"), metadata: { tags: tagList(6, "b") } },
      "tags",
    ],
    ["a 65-character tag", { tags: ["t".repeat(65)] }, "tags.0"],
    [
      "a 65-character metadata tag",
      { metadata: { tags: ["ok", "t".repeat(65)] } },
      "metadata.tags.1",
    ],
    ["an empty tag", { tags: [""] }, "tags.0"],
    ["a non-string tag", { tags: [7] }, "tags.0"],
    ["namespace of 256 characters", { namespace: "n".repeat(256) }, "namespace"],
    ["empty namespace", { namespace: "" }, "namespace"],
    ["session_id of 256 characters", { session_id: "s".repeat(256) }, "session_id"],
    ["agent_id of 256 characters", { agent_id: "a".repeat(256) }, "agent_id"],
    ["importance -0.1", { importance: -0.1 }, "importance"],
    ["importance 1.1", { importance: 1.1 }, "importance"],
    ["importance as a string", { importance: "0.5" }, "importance"],
    ["memory_type bogus", { memory_type: "bogus" }, "memory_type"],
    [
      "expires_at in the past",
      { expires_at: new Date(Date.now() - 60_000).toISOString() },
      "expires_at",
    ],
    ["expires_at not a date", { expires_at: "not a date" }, "expires_at"],
    ["expires_at an impossible date", { expires_at: "2099-13-45T00:00:00Z" }, "expires_at"],
    ["pinned not a boolean", { pinned: "yes" }, "pinned"],
    ["immutable not a boolean", { immutable: 1 }, "immutable"],
  ];

  it.each(rejected)("rejects %s with 422", async (_name, fields, path) => {
    const w = newWallet();
    // `content: undefined` in `fields` drops the key from the JSON body.
    const body = { content: "A valid content string", ...fields };
    const res = await w.post("/v1/store", body);
    expectError(res, 422, "VALIDATION_ERROR");
    expect(issuePaths(res)).toContain(path);
    expect(await count(w)).toBe(0);
  });

  it("accepts content of exactly 8,192 characters and keeps it whole", async () => {
    const w = newWallet();
    const content = `${"word ".repeat(1638)}ab`;
    expect(content.length).toBe(8192);
    const id = await w.store(content);
    expect((await w.get(`/v1/memories/${id}`)).body.content).toBe(content);
  });

  it("counts content in characters, not bytes", async () => {
    const w = newWallet();
    const content = "é".repeat(8192);
    const id = await w.store(content);
    expect((await w.get(`/v1/memories/${id}`)).body.content).toBe(content);
  });

  it("accepts 10 tags, a 64-character tag, 20 metadata keys, 3 levels and 4,096 bytes", async () => {
    const w = newWallet();
    const tenTags = tagList(10);
    const a = await w.store(unique(), { tags: tenTags });
    expect((await w.get(`/v1/memories/${a}`)).body.tags).toEqual(tenTags);

    const longTag = "t".repeat(64);
    const b = await w.store(unique(), { tags: [longTag] });
    expect((await w.get(`/v1/memories/${b}`)).body.tags).toEqual([longTag]);

    const c = await w.store(unique(), { metadata: keys(20) });
    expect((await w.get(`/v1/memories/${c}`)).body.metadata).toEqual(keys(20));

    const deep = { a: { b: { c: 1 } } };
    const d = await w.store(unique(), { metadata: deep });
    expect((await w.get(`/v1/memories/${d}`)).body.metadata).toEqual(deep);

    const big = metadataOfBytes(4096);
    expect(JSON.stringify(big).length).toBe(4096);
    const e = await w.store(unique(), { metadata: big });
    expect((await w.get(`/v1/memories/${e}`)).body.metadata).toEqual(big);

    // 5 + 5 distinct, plus overlaps: 10 after the merge.
    const f = await w.store(unique(), {
      tags: [...tagList(5, "a"), "shared"],
      metadata: { tags: ["shared", ...tagList(4, "b")] },
    });
    expect((await w.get(`/v1/memories/${f}`)).body.tags).toHaveLength(10);
    expect(await count(w)).toBe(6);
  });

  it("accepts importance 0 and 1, and 255-character namespace, session_id and agent_id", async () => {
    const w = newWallet();
    const zero = await w.store(unique(), { importance: 0 });
    expect((await w.get(`/v1/memories/${zero}`)).body.importance).toBe(0);
    const one = await w.store(unique(), { importance: 1 });
    expect((await w.get(`/v1/memories/${one}`)).body.importance).toBe(1);

    const long = {
      namespace: "n".repeat(255),
      session_id: "s".repeat(255),
      agent_id: "a".repeat(255),
    };
    const id = await w.store(unique(), long);
    expect((await w.get(`/v1/memories/${id}`)).body).toMatchObject(long);
  });

  it("accepts null session_id, agent_id and expires_at", async () => {
    const w = newWallet();
    const id = await w.store(unique(), { session_id: null, agent_id: null, expires_at: null });
    expect((await w.get(`/v1/memories/${id}`)).body).toMatchObject({
      session_id: null,
      agent_id: null,
      expires_at: null,
    });
  });
});

describe("deduplication on store", () => {
  const TEXT = "The deploy pipeline runs every Friday at noon";

  it("merges the same content in the same namespace into the first memory", async () => {
    const w = newWallet();
    const first = await w.post("/v1/store", { content: TEXT });
    const second = await w.post("/v1/store", { content: TEXT });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.body.deduplicated).toBe(false);
    expect(second.body).toMatchObject({ id: first.body.id, stored: true, deduplicated: true });
    expect(await count(w)).toBe(1);
  });

  it("answers a merge with the memory it merged into, as merged", async () => {
    const w = newWallet();
    const first = await w.post("/v1/store", { content: TEXT, tags: ["ci"], importance: 0.3 });
    const second = await w.post("/v1/store", {
      content: TEXT,
      tags: ["friday"],
      importance: 0.9,
    });
    expect(second.body.deduplicated).toBe(true);
    expect(second.body.memory).toMatchObject({
      id: first.body.id,
      tags: ["ci", "friday"],
      importance: 0.9,
    });
    expect(second.body.memory).toEqual((await w.get(`/v1/memories/${first.body.id}`)).body);
  });

  it("applies the documented merge rules", async () => {
    const w = newWallet();
    const id = await w.store(TEXT, {
      tags: ["ci", "ops"],
      importance: 0.3,
      metadata: { owner: "alice", team: "infra" },
      memory_type: "decision",
      session_id: "s-old",
      agent_id: "agent-old",
      pinned: false,
    });
    const longer = `${TEXT}!!!`;
    const res = await w.post("/v1/store", {
      content: longer,
      tags: ["ops", "friday"],
      importance: 0.9,
      metadata: { team: "platform", channel: "#deploys" },
      memory_type: "preference",
      session_id: "s-new",
      agent_id: "agent-new",
      pinned: true,
    });
    expect(res.body).toMatchObject({ id, deduplicated: true });
    const got = await w.get(`/v1/memories/${id}`);
    expect(got.body).toMatchObject({
      content: longer,
      tags: ["ci", "ops", "friday"],
      importance: 0.9,
      metadata: {
        owner: "alice",
        team: "platform",
        channel: "#deploys",
        tags: ["ci", "ops", "friday"],
      },
      memory_type: "decision",
      session_id: "s-old",
      agent_id: "agent-old",
      pinned: true,
      immutable: false,
    });
    expect(await count(w)).toBe(1);
  });

  it("keeps the existing content, importance and pin when the new one is shorter, lower and unpinned", async () => {
    const w = newWallet();
    const longer = `${TEXT}...`;
    const id = await w.store(longer, { importance: 0.9, pinned: true });
    const res = await w.post("/v1/store", { content: TEXT, importance: 0.1, pinned: false });
    expect(res.body).toMatchObject({ id, deduplicated: true });
    const got = await w.get(`/v1/memories/${id}`);
    expect(got.body).toMatchObject({ content: longer, importance: 0.9, pinned: true });
  });

  it("keeps the existing content on a tie in length", async () => {
    const w = newWallet();
    const id = await w.store(TEXT);
    const shouting = TEXT.toUpperCase();
    expect(shouting.length).toBe(TEXT.length);
    const res = await w.post("/v1/store", { content: shouting });
    expect(res.body).toMatchObject({ id, deduplicated: true });
    expect((await w.get(`/v1/memories/${id}`)).body.content).toBe(TEXT);
  });

  it("caps the merged tags at 10", async () => {
    const w = newWallet();
    const id = await w.store(TEXT, { tags: tagList(8, "a") });
    await w.post("/v1/store", { content: TEXT, tags: tagList(5, "b") });
    const got = await w.get(`/v1/memories/${id}`);
    expect(got.body.tags).toEqual([...tagList(8, "a"), "b0", "b1"]);
  });

  it("merges expiry: none if either has none, else the later one", async () => {
    const w = newWallet();
    const soon = inHours(1);
    const later = inHours(48);

    const a = await w.store(TEXT, { namespace: "a", expires_at: soon });
    await w.post("/v1/store", { content: TEXT, namespace: "a" });
    expect((await w.get(`/v1/memories/${a}`)).body.expires_at).toBeNull();

    const b = await w.store(TEXT, { namespace: "b" });
    await w.post("/v1/store", { content: TEXT, namespace: "b", expires_at: soon });
    expect((await w.get(`/v1/memories/${b}`)).body.expires_at).toBeNull();

    const c = await w.store(TEXT, { namespace: "c", expires_at: later });
    await w.post("/v1/store", { content: TEXT, namespace: "c", expires_at: soon });
    expect(Date.parse((await w.get(`/v1/memories/${c}`)).body.expires_at)).toBe(Date.parse(later));

    const d = await w.store(TEXT, { namespace: "d", expires_at: soon });
    await w.post("/v1/store", { content: TEXT, namespace: "d", expires_at: later });
    expect(Date.parse((await w.get(`/v1/memories/${d}`)).body.expires_at)).toBe(Date.parse(later));
    expect(await count(w)).toBe(4);
  });

  it("writes no history entry", async () => {
    const w = newWallet();
    const id = await w.store(TEXT, { importance: 0.2 });
    await w.post("/v1/store", { content: `${TEXT}.`, importance: 0.7 });
    const history = await w.get(`/v1/memories/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.history).toEqual([]);
  });

  it("never changes an immutable memory, but still reports it as the deduplicated id", async () => {
    const w = newWallet();
    const id = await w.store(TEXT, {
      immutable: true,
      importance: 0.2,
      tags: ["locked"],
      metadata: { v: 1 },
    });
    const before = await w.get(`/v1/memories/${id}`);
    const res = await w.post("/v1/store", {
      content: `${TEXT}!!!!`,
      importance: 0.95,
      tags: ["new"],
      metadata: { v: 2, extra: true },
      pinned: true,
      expires_at: inHours(2),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, deduplicated: true });
    const after = await w.get(`/v1/memories/${id}`);
    expect(after.body).toEqual(before.body);
    expect(res.body.memory).toEqual(before.body);
    expect(after.body).toMatchObject({
      content: TEXT,
      importance: 0.2,
      tags: ["locked"],
      metadata: { v: 1, tags: ["locked"] },
      pinned: false,
      immutable: true,
      expires_at: null,
    });
    expect(await count(w)).toBe(1);
  });

  it("stores the same content in another namespace as a new memory", async () => {
    const w = newWallet();
    const a = await w.store(TEXT, { namespace: "work" });
    const res = await w.post("/v1/store", { content: TEXT, namespace: "home" });
    expect(res.body.deduplicated).toBe(false);
    expect(res.body.id).not.toBe(a);
    const defaultNs = await w.post("/v1/store", { content: TEXT });
    expect(defaultNs.body.deduplicated).toBe(false);
    expect(await count(w)).toBe(3);
  });

  it("never merges across wallets", async () => {
    const a = newWallet();
    const b = newWallet();
    const aId = await a.store(TEXT, { importance: 0.2, tags: ["a"] });
    const res = await b.post("/v1/store", { content: TEXT, importance: 0.9, tags: ["b"] });
    expect(res.status).toBe(201);
    expect(res.body.deduplicated).toBe(false);
    expect(res.body.id).not.toBe(aId);
    const aMemory = await a.get(`/v1/memories/${aId}`);
    expect(aMemory.body).toMatchObject({ importance: 0.2, tags: ["a"] });
    expect(await count(a)).toBe(1);
    expect(await count(b)).toBe(1);
  });

  it("does not deduplicate different content", async () => {
    const w = newWallet();
    const a = await w.post("/v1/store", { content: TEXT });
    const b = await w.post("/v1/store", {
      content: "Quarterly revenue grew twelve percent in Europe",
    });
    expect(b.body.deduplicated).toBe(false);
    expect(b.body.id).not.toBe(a.body.id);
    expect(await count(w)).toBe(2);
  });

  it("does not merge into a deleted memory", async () => {
    const w = newWallet();
    const id = await w.store(TEXT);
    expect((await w.del(`/v1/memories/${id}`)).status).toBe(200);
    const res = await w.post("/v1/store", { content: TEXT });
    expect(res.body.deduplicated).toBe(false);
    expect(res.body.id).not.toBe(id);
    expect(await count(w)).toBe(1);
  });
});

describe("POST /v1/store/batch", () => {
  it("stores every item and answers with ids, count, deduplicated_count and tokens_used", async () => {
    const w = newWallet();
    const items = [
      { content: unique("first"), namespace: "batch", importance: 0.7 },
      { content: unique("second"), tags: ["x"], memory_type: "project" },
      { content: unique("third"), session_id: "s1", agent_id: "a1", pinned: true },
    ];
    const res = await w.post("/v1/store/batch", { memories: items });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      "count",
      "deduplicated_count",
      "failed",
      "ids",
      "memories",
      "stored",
      "tokens_used",
    ]);
    expect(res.body.stored).toBe(true);
    expect(res.body.count).toBe(3);
    expect(res.body.deduplicated_count).toBe(0);
    expect(res.body.ids).toHaveLength(3);
    expect(new Set(res.body.ids).size).toBe(3);
    expect(res.body.tokens_used).toBeGreaterThan(0);

    const [m0, m1, m2] = await Promise.all(
      (res.body.ids as string[]).map((id) => w.get(`/v1/memories/${id}`)),
    );
    expect(m0?.body).toMatchObject({
      content: items[0]?.content,
      namespace: "batch",
      importance: 0.7,
    });
    expect(m1?.body).toMatchObject({
      content: items[1]?.content,
      tags: ["x"],
      memory_type: "project",
    });
    expect(m2?.body).toMatchObject({
      content: items[2]?.content,
      session_id: "s1",
      agent_id: "a1",
      pinned: true,
      namespace: "default",
      importance: 0.5,
    });
    expect(await count(w)).toBe(3);
    // Client extras: the stored memories in item order, as GET shows them; nothing failed.
    expect(res.body.memories).toEqual([m0?.body, m1?.body, m2?.body]);
    expect(res.body.failed).toEqual([]);
  });

  it("reports the same tokens_used as the items stored one by one", async () => {
    const single = newWallet();
    const batch = newWallet();
    const texts = [
      "Alice prefers dark mode in every editor",
      "The office closes at 6pm on Fridays",
    ];
    let total = 0;
    for (const content of texts) {
      const res = await single.post("/v1/store", { content });
      total += res.body.tokens_used as number;
    }
    const res = await batch.post("/v1/store/batch", {
      memories: texts.map((content) => ({ content })),
    });
    expect(res.body.tokens_used).toBe(total);
  });

  it("accepts 1 and 100 items", async () => {
    const w = newWallet();
    const one = await w.post("/v1/store/batch", { memories: [{ content: unique() }] });
    expect(one.status).toBe(201);
    expect(one.body.count).toBe(1);
    const hundred = await w.post("/v1/store/batch", {
      memories: Array.from({ length: 100 }, () => ({ content: unique() })),
    });
    expect(hundred.status, JSON.stringify(hundred.body).slice(0, 300)).toBe(201);
    expect(hundred.body.count).toBe(100);
    expect(hundred.body.deduplicated_count).toBe(0);
    expect(new Set(hundred.body.ids).size).toBe(100);
    expect(await count(w)).toBe(101);
  });

  it("rejects 0 items, 101 items, a missing array and a non-array with 422", async () => {
    const w = newWallet();
    const bodies = [
      { memories: [] },
      { memories: Array.from({ length: 101 }, () => ({ content: unique() })) },
      {},
      { memories: { content: "not an array" } },
    ];
    for (const body of bodies) {
      const res = await w.post("/v1/store/batch", body);
      expectError(res, 422, "VALIDATION_ERROR");
      expect(issuePaths(res)).toEqual(["memories"]);
    }
    expect(await count(w)).toBe(0);
  });

  it("merges duplicates inside one batch", async () => {
    const w = newWallet();
    const text = "Standup moves to 9:30 starting next week";
    const other = unique("other");
    const res = await w.post("/v1/store/batch", {
      memories: [
        { content: text, importance: 0.4, tags: ["meetings"] },
        { content: other },
        { content: `${text}!`, importance: 0.8, tags: ["schedule"] },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(3);
    expect(res.body.deduplicated_count).toBe(1);
    const [first, second, third] = res.body.ids as string[];
    expect(third).toBe(first);
    expect(second).not.toBe(first);
    expect(await count(w)).toBe(2);
    const merged = await w.get(`/v1/memories/${first}`);
    expect(merged.body).toMatchObject({
      content: `${text}!`,
      importance: 0.8,
      tags: ["meetings", "schedule"],
    });
    // One memory per item: a merged item shows the memory it merged into, as the batch left it.
    expect((res.body.memories as Array<{ id: string }>).map((m) => m.id)).toEqual(res.body.ids);
    expect(res.body.memories[0]).toEqual(merged.body);
    expect(res.body.memories[2]).toEqual(merged.body);
  });

  it("merges an item into an existing memory", async () => {
    const w = newWallet();
    const text = "The VPN certificate expires in March";
    const existing = await w.store(text);
    const res = await w.post("/v1/store/batch", {
      memories: [{ content: unique() }, { content: text }],
    });
    expect(res.body.deduplicated_count).toBe(1);
    expect(res.body.ids[1]).toBe(existing);
    expect(await count(w)).toBe(2);
  });

  it("stores nothing when one item is invalid", async () => {
    const w = newWallet();
    await w.store(unique("existing"));
    const valid = [unique("v1"), unique("v2"), unique("v3")];
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ content: "x".repeat(8193) }, "memories.3.content"],
      [{ content: "bad importance", importance: 2 }, "memories.3.importance"],
      [
        { content: "too many tags", tags: tagList(6, "a"), metadata: { tags: tagList(6, "b") } },
        "memories.3.tags",
      ],
      [{ content: "past", expires_at: "2000-01-01T00:00:00Z" }, "memories.3.expires_at"],
    ];
    for (const [bad, path] of cases) {
      const res = await w.post("/v1/store/batch", {
        memories: [...valid.map((content) => ({ content })), bad],
      });
      expectError(res, 422, "VALIDATION_ERROR");
      expect(issuePaths(res)).toEqual([path]);
    }
    expect(await count(w)).toBe(1);
    const list = await w.get("/v1/memories");
    expect(list.body.total).toBe(1);
    const contents = (list.body.memories as Array<{ content: string }>).map((m) => m.content);
    for (const content of valid) expect(contents).not.toContain(content);
  });

  it("keeps batches of different wallets apart", async () => {
    const a = newWallet();
    const b = newWallet();
    const text = "Shared wording across two wallets";
    const ra = await a.post("/v1/store/batch", { memories: [{ content: text }] });
    const rb = await b.post("/v1/store/batch", { memories: [{ content: text }] });
    expect(rb.body.deduplicated_count).toBe(0);
    expect(rb.body.ids[0]).not.toBe(ra.body.ids[0]);
    expect(rb.body.memories[0].id).toBe(rb.body.ids[0]);
    expect(rb.body.memories[0].user_id).not.toBe(ra.body.memories[0].user_id);
    expectError(await b.get(`/v1/memories/${ra.body.ids[0]}`), 404, "NOT_FOUND");
  });
});
