/** POST /v1/store/batch: up to 100 memories at once, all or nothing, deduplicated. */
import { describe, expect, it } from "vitest";
import { expectError, issuePaths, newWallet, uniqueText } from "../../helpers";
import { tagList } from "./fixtures";

describe("POST /v1/store/batch", () => {
  it("stores every item and answers with ids, count, deduplicated_count and tokens_used", async () => {
    const w = newWallet();
    const items = [
      { content: uniqueText("first"), namespace: "batch", importance: 0.7 },
      { content: uniqueText("second"), tags: ["x"], memory_type: "project" },
      { content: uniqueText("third"), session_id: "s1", agent_id: "a1", pinned: true },
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
    expect(await w.memoryCount()).toBe(3);
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
    const one = await w.post("/v1/store/batch", { memories: [{ content: uniqueText() }] });
    expect(one.status).toBe(201);
    expect(one.body.count).toBe(1);
    const hundred = await w.post("/v1/store/batch", {
      memories: Array.from({ length: 100 }, () => ({ content: uniqueText() })),
    });
    expect(hundred.status, JSON.stringify(hundred.body).slice(0, 300)).toBe(201);
    expect(hundred.body.count).toBe(100);
    expect(hundred.body.deduplicated_count).toBe(0);
    expect(new Set(hundred.body.ids).size).toBe(100);
    expect(await w.memoryCount()).toBe(101);
  });

  it("rejects 0 items, 101 items, a missing array and a non-array with 422", async () => {
    const w = newWallet();
    const bodies = [
      { memories: [] },
      { memories: Array.from({ length: 101 }, () => ({ content: uniqueText() })) },
      {},
      { memories: { content: "not an array" } },
    ];
    for (const body of bodies) {
      const res = await w.post("/v1/store/batch", body);
      expectError(res, 422, "VALIDATION_ERROR");
      expect(issuePaths(res)).toEqual(["memories"]);
    }
    expect(await w.memoryCount()).toBe(0);
  });

  it("merges duplicates inside one batch", async () => {
    const w = newWallet();
    const text = "Standup moves to 9:30 starting next week";
    const other = uniqueText("other");
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
    expect(await w.memoryCount()).toBe(2);
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
      memories: [{ content: uniqueText() }, { content: text }],
    });
    expect(res.body.deduplicated_count).toBe(1);
    expect(res.body.ids[1]).toBe(existing);
    expect(await w.memoryCount()).toBe(2);
  });

  it("keeps every field of every item exactly, whatever characters its strings hold", async () => {
    const w = newWallet();
    // The rows go to Postgres as one array per column (worker/memories/insert.ts): quotes,
    // backslashes, braces, commas, NULL-like words and non-ASCII text must survive that.
    const expiresAt = new Date(Date.now() + 86_400_000 + 123).toISOString();
    const items = [
      {
        content: uniqueText(`quote " backslash \\ braces {a,b} comma, newline\nend NULL`),
        tags: ['he said "hi"', "back\\slash", "{x,y}", "a,b", "NULL", "ünïcödé 🚀"],
        metadata: { nested: { list: [1, "two", null] }, quote: '"', empty: "" },
        importance: 0.33,
        session_id: "NULL",
        agent_id: "agent, with comma",
        expires_at: expiresAt,
        immutable: true,
      },
      { content: uniqueText("plain, no extras"), tags: [] },
      { content: uniqueText("emoji 🚀 and ünïcödé"), namespace: "{ns}", pinned: true },
    ];
    const res = await w.post("/v1/store/batch", { memories: items });
    expect(res.status).toBe(201);
    const got = await Promise.all(
      (res.body.ids as string[]).map(async (id) => (await w.get(`/v1/memories/${id}`)).body),
    );
    expect(got[0]).toMatchObject({
      content: items[0]?.content,
      tags: items[0]?.tags,
      metadata: items[0]?.metadata,
      importance: 0.33,
      session_id: "NULL",
      agent_id: "agent, with comma",
      immutable: true,
      pinned: false,
    });
    expect(new Date(got[0]?.expires_at).toISOString()).toBe(expiresAt);
    expect(got[1]).toMatchObject({
      content: items[1]?.content,
      tags: [],
      metadata: {},
      session_id: null,
      agent_id: null,
      expires_at: null,
    });
    expect(got[2]).toMatchObject({ content: items[2]?.content, namespace: "{ns}", pinned: true });
    expect(res.body.memories).toEqual(got);
  });

  it("stores nothing when one item is invalid", async () => {
    const w = newWallet();
    await w.store(uniqueText("existing"));
    const valid = [uniqueText("v1"), uniqueText("v2"), uniqueText("v3")];
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
    expect(await w.memoryCount()).toBe(1);
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
