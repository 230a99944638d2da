/**
 * Updating memories: PATCH /v1/memories/:id (every field, errors, immutability, history) and
 * the batch forms PATCH /v1/memories/batch and POST /v1/memories/batch-update.
 * Every test uses fresh wallets.
 */
import { describe, expect, it } from "vitest";
import {
  expectError,
  getMemory,
  type Json,
  MISSING_ID,
  newWallet,
  sleep,
  uniqueText,
  type Wallet,
} from "../../helpers";

async function patchOk(w: Wallet, id: string, body: unknown): Promise<Json> {
  const res = await w.patch(`/v1/memories/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function history(w: Wallet, id: string): Promise<Json[]> {
  const res = await w.get(`/v1/memories/${id}/history`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.history;
}

async function searchIds(w: Wallet, query: string): Promise<string[]> {
  const res = await w.post("/v1/search", { query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.memories.map((m: Json) => m.id);
}

const future = (ms: number) => new Date(Date.now() + ms).toISOString();

describe("PATCH /v1/memories/:id fields", () => {
  it("content: re-embeds, keyword search follows the new text", async () => {
    const w = newWallet();
    const id = await w.store(`marmalade ${uniqueText("old")}`);
    const before = await getMemory(w, id);
    expect(await searchIds(w, "marmalade")).toEqual([id]);
    expect(await searchIds(w, "trombone")).toEqual([]);

    await sleep(10);
    const content = `trombone ${uniqueText("new")}`;
    const updated = await patchOk(w, id, { content });
    expect(updated.id).toBe(id);
    expect(updated.content).toBe(content);
    expect(updated.embedding_model).toBe(before.embedding_model);
    expect(typeof updated.embedding_model).toBe("string");

    expect((await getMemory(w, id)).content).toBe(content);
    expect(await searchIds(w, "trombone")).toEqual([id]);
    expect(await searchIds(w, "marmalade")).toEqual([]);
  });

  it("response is the full updated memory; untouched fields are kept", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("full"), {
      metadata: { keep: "me" },
      tags: ["t1"],
      importance: 0.3,
      memory_type: "observation",
      namespace: "ns1",
      session_id: "s1",
      agent_id: "a1",
    });
    const before = await getMemory(w, id);
    await sleep(15);
    const res = await patchOk(w, id, { importance: 0.9 });
    expect(res).toMatchObject({
      id,
      content: before.content,
      metadata: { keep: "me", tags: ["t1"] },
      importance: 0.9,
      memory_type: "observation",
      namespace: "ns1",
      session_id: "s1",
      agent_id: "a1",
      expires_at: null,
      pinned: false,
      immutable: false,
      created_at: before.created_at,
      access_count: 0,
    });
    expect(Date.parse(res.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    // The stored record matches the response.
    const after = await getMemory(w, id);
    expect(after.importance).toBe(0.9);
    expect(after.updated_at).toBe(res.updated_at);
  });

  it("metadata replaces the old metadata entirely", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("meta"), { metadata: { a: 1, b: { c: 2 } } });
    const res = await patchOk(w, id, { metadata: { z: "new", nested: { deep: true } } });
    expect(res.metadata).toEqual({ z: "new", nested: { deep: true } });
    expect((await getMemory(w, id)).metadata).toEqual({ z: "new", nested: { deep: true } });

    const cleared = await patchOk(w, id, { metadata: {} });
    expect(cleared.metadata).toEqual({});
  });

  it("metadata with tags replaces the tags too; top-level tags replace tags only", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("tags"), { metadata: { k: "v" }, tags: ["old"] });

    const viaTop = await patchOk(w, id, { tags: ["x", "y"] });
    expect(viaTop.metadata).toEqual({ k: "v", tags: ["x", "y"] });
    const listed = await w.get("/v1/memories?tags=x");
    expect(listed.body.memories.map((m: Json) => m.id)).toEqual([id]);
    expect((await w.get("/v1/memories?tags=old")).body.total).toBe(0);

    const viaMeta = await patchOk(w, id, { metadata: { other: 1, tags: ["m"] } });
    expect(viaMeta.metadata).toEqual({ other: 1, tags: ["m"] });
    expect((await w.get("/v1/memories?tags=x")).body.total).toBe(0);
    expect((await w.get("/v1/memories?tags=m")).body.total).toBe(1);

    const noTags = await patchOk(w, id, { metadata: { only: true } });
    expect(noTags.metadata).toEqual({ only: true });
    expect((await w.get("/v1/memories?tags=m")).body.total).toBe(0);
  });

  it("importance, memory_type, namespace, pinned each alone", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("fields"));

    expect((await patchOk(w, id, { importance: 0 })).importance).toBe(0);
    expect((await patchOk(w, id, { importance: 1 })).importance).toBe(1);
    const typed = await patchOk(w, id, { memory_type: "correction" });
    expect(typed.memory_type).toBe("correction");
    expect(typed.importance).toBe(1);
    const moved = await patchOk(w, id, { namespace: "elsewhere" });
    expect(moved.namespace).toBe("elsewhere");
    expect(moved.memory_type).toBe("correction");
    expect((await w.get("/v1/memories?namespace=elsewhere")).body.total).toBe(1);
    expect((await w.get("/v1/memories?namespace=default")).body.total).toBe(0);
    expect((await patchOk(w, id, { pinned: true })).pinned).toBe(true);
    expect((await w.get("/v1/memories?pinned=true")).body.total).toBe(1);
    expect((await patchOk(w, id, { pinned: false })).pinned).toBe(false);

    const final = await getMemory(w, id);
    expect(final).toMatchObject({
      importance: 1,
      memory_type: "correction",
      namespace: "elsewhere",
      pinned: false,
    });
  });

  it("expires_at: set in the future, then null clears it", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("expiry"));
    const at = future(3_600_000);
    const set = await patchOk(w, id, { expires_at: at });
    expect(set.expires_at).toBe(at);
    expect((await getMemory(w, id)).expires_at).toBe(at);

    const later = future(7_200_000);
    expect((await patchOk(w, id, { expires_at: later })).expires_at).toBe(later);

    const cleared = await patchOk(w, id, { expires_at: null });
    expect(cleared.expires_at).toBeNull();
    expect((await getMemory(w, id)).expires_at).toBeNull();
  });

  it("session_id and agent_id", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("scope"), { session_id: "s-old", agent_id: "a-old" });
    const res = await patchOk(w, id, { session_id: "s-new" });
    expect(res.session_id).toBe("s-new");
    expect(res.agent_id).toBe("a-old");
    const res2 = await patchOk(w, id, { agent_id: "a-new" });
    expect(res2).toMatchObject({ session_id: "s-new", agent_id: "a-new" });
    expect((await w.get("/v1/memories?session_id=s-new&agent_id=a-new")).body.total).toBe(1);
    expect((await w.get("/v1/memories?session_id=s-old")).body.total).toBe(0);
  });

  it("setting content identical to another memory's does not deduplicate", async () => {
    const w = newWallet();
    const content = uniqueText("twin");
    const a = await w.store(content);
    const b = await w.store(uniqueText("other"));
    const res = await patchOk(w, b, { content });
    expect(res.id).toBe(b);
    expect(res.content).toBe(content);

    const page = await w.get("/v1/memories");
    expect(page.body.total).toBe(2);
    expect(page.body.memories.map((m: Json) => m.id).sort()).toEqual([a, b].sort());
    expect((await getMemory(w, a)).content).toBe(content);
    expect((await getMemory(w, b)).content).toBe(content);
  });

  it("keeps relations through a content update", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("source"));
    const b = await w.store(uniqueText("target"));
    const rel = await w.post(`/v1/memories/${a}/relations`, {
      target_id: b,
      relation_type: "supports",
    });
    expect(rel.status, JSON.stringify(rel.body)).toBe(201);
    await patchOk(w, a, { content: uniqueText("rewritten") });
    const rels = await w.get(`/v1/memories/${a}/relations`);
    expect(rels.status).toBe(200);
    expect(rels.body.relations.map((r: Json) => [r.id, r.target_id, r.relation_type])).toEqual([
      [rel.body.id, b, "supports"],
    ]);
  });
});

describe("PATCH /v1/memories/:id history", () => {
  it("one entry per PATCH, oldest first, holding exactly the changed fields", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("hist"), { tags: ["first"] });
    expect(await history(w, id)).toEqual([]);

    const content = uniqueText("rewritten");
    const at = future(3_600_000);
    await patchOk(w, id, { importance: 0.9 });
    await patchOk(w, id, { content });
    await patchOk(w, id, { memory_type: "decision", pinned: true });
    await patchOk(w, id, { expires_at: at });
    await patchOk(w, id, { expires_at: null, namespace: "moved" });
    await patchOk(w, id, { tags: ["second"] });
    await patchOk(w, id, { session_id: "sess", agent_id: "agent" });

    const entries = await history(w, id);
    expect(entries.map((e) => e.changes)).toEqual([
      { importance: 0.9 },
      { content },
      { memory_type: "decision", pinned: true },
      { expires_at: at },
      { expires_at: null, namespace: "moved" },
      { tags: ["second"] },
      { session_id: "sess", agent_id: "agent" },
    ]);
    const ids = new Set<string>();
    let previous = 0;
    for (const e of entries) {
      expect(e.memory_id).toBe(id);
      expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(e.id);
      const t = Date.parse(e.created_at);
      expect(t).toBeGreaterThanOrEqual(previous);
      previous = t;
    }
    expect(ids.size).toBe(entries.length);
  });

  it("a metadata PATCH records the new metadata", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("meta-hist"), { metadata: { a: 1 } });
    await patchOk(w, id, { metadata: { b: 2 } });
    await patchOk(w, id, { metadata: { c: 3, tags: ["t"] } });
    expect((await history(w, id)).map((e) => e.changes)).toEqual([
      { metadata: { b: 2 } },
      { metadata: { c: 3, tags: ["t"] }, tags: ["t"] },
    ]);
  });

  it("failed PATCHes and stores write no history; other wallets get 404", async () => {
    const w = newWallet();
    const other = newWallet();
    const id = await w.store(uniqueText("quiet"));
    expect((await w.patch(`/v1/memories/${id}`, { importance: 7 })).status).toBe(422);
    expect((await w.patch(`/v1/memories/${id}`, {})).status).toBe(422);
    expect(await history(w, id)).toEqual([]);

    expectError(await other.get(`/v1/memories/${id}/history`), 404, "NOT_FOUND");
    expectError(await w.get(`/v1/memories/${MISSING_ID}/history`), 404, "NOT_FOUND");
    expectError(await w.get("/v1/memories/nope/history"), 422, "VALIDATION_ERROR");
    expect((await w.del(`/v1/memories/${id}`)).status).toBe(200);
    expectError(await w.get(`/v1/memories/${id}/history`), 404, "NOT_FOUND");
  });
});

describe("PATCH /v1/memories/:id errors", () => {
  it("404 for unknown, deleted and another wallet's memory (left unchanged)", async () => {
    const a = newWallet();
    const b = newWallet();
    const id = await a.store(uniqueText("owned"), { importance: 0.4 });
    const gone = await a.store(uniqueText("gone"));
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);

    expectError(await a.patch(`/v1/memories/${MISSING_ID}`, { importance: 0.1 }), 404, "NOT_FOUND");
    expectError(await a.patch(`/v1/memories/${gone}`, { importance: 0.1 }), 404, "NOT_FOUND");
    expectError(await b.patch(`/v1/memories/${id}`, { importance: 0.1 }), 404, "NOT_FOUND");
    expectError(await b.patch(`/v1/memories/${id}`, { content: "hijack" }), 404, "NOT_FOUND");

    const m = await getMemory(a, id);
    expect(m.importance).toBe(0.4);
    expect(m.content.startsWith("owned ")).toBe(true);
    expect(await history(a, id)).toEqual([]);
  });

  it("422 for a non-UUID id and for an empty body", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("target"));
    expectError(
      await w.patch("/v1/memories/not-a-uuid", { importance: 0.1 }),
      422,
      "VALIDATION_ERROR",
    );
    expectError(await w.patch(`/v1/memories/${id}`, {}), 422, "VALIDATION_ERROR");
    expectError(await w.patch(`/v1/memories/${id}`), 422, "VALIDATION_ERROR");
    expectError(await w.patch(`/v1/memories/${id}`, { unknown_field: 1 }), 422, "VALIDATION_ERROR");
    const res = await w.raw("PATCH", `/v1/memories/${id}`, "{not json");
    expectError(res, 422, "VALIDATION_ERROR");
  });

  it("422 for invalid field values, memory left unchanged", async () => {
    const w = newWallet();
    const content = uniqueText("stable");
    const id = await w.store(content);
    const bad: Array<Record<string, unknown>> = [
      { importance: 2 },
      { importance: -0.1 },
      { importance: "high" },
      { content: "x".repeat(8193) },
      { content: "" },
      { content: "   " },
      { content: 42 },
      { expires_at: new Date(Date.now() - 60_000).toISOString() },
      { expires_at: "next tuesday" },
      { memory_type: "bogus" },
      { namespace: "" },
      { namespace: "n".repeat(256) },
      { session_id: "s".repeat(256) },
      { agent_id: "a".repeat(256) },
      { pinned: "yes" },
      { immutable: "true" },
      { metadata: ["not", "an", "object"] },
      { metadata: "string" },
      { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) },
      { metadata: { a: { b: { c: { d: 1 } } } } },
      { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      { tags: ["t".repeat(65)] },
      { importance: 0.2, memory_type: "nope" },
    ];
    for (const body of bad) {
      const res = await w.patch(`/v1/memories/${id}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expectError(res, 422, "VALIDATION_ERROR");
    }
    const m = await getMemory(w, id);
    expect(m).toMatchObject({
      content,
      importance: 0.5,
      memory_type: "general",
      namespace: "default",
      metadata: {},
      pinned: false,
      immutable: false,
      expires_at: null,
    });
    expect(await history(w, id)).toEqual([]);
  });

  it("accepts content of exactly 8,192 characters", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("short"));
    const long = `${uniqueText("long")} ${"y".repeat(8192)}`.slice(0, 8192);
    expect(long.length).toBe(8192);
    const res = await patchOk(w, id, { content: long });
    expect(res.content).toBe(long);
  });
});

describe("immutable memories", () => {
  it("PATCH {immutable:true} locks the memory: later PATCH and DELETE get 409", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("lock"), { importance: 0.6 });
    const locked = await patchOk(w, id, { immutable: true });
    expect(locked.immutable).toBe(true);
    expect(locked.id).toBe(id);

    for (const body of [
      { immutable: false },
      { pinned: true },
      { importance: 0.1 },
      { content: uniqueText("changed") },
      { metadata: { a: 1 } },
      { expires_at: null },
      { immutable: true },
    ]) {
      const res = await w.patch(`/v1/memories/${id}`, body);
      expectError(res, 409, "CONFLICT");
    }
    expectError(await w.del(`/v1/memories/${id}`), 409, "CONFLICT");

    const m = await getMemory(w, id);
    expect(m).toMatchObject({ immutable: true, pinned: false, importance: 0.6 });
    expect(m.content.startsWith("lock ")).toBe(true);
    expect((await history(w, id)).map((e) => e.changes)).toEqual([{ immutable: true }]);
  });

  it("a memory stored immutable rejects PATCH with 409; validation still comes first", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("born-locked"), { immutable: true });
    expectError(await w.patch(`/v1/memories/${id}`, { importance: 0.2 }), 409, "CONFLICT");
    expectError(await w.patch(`/v1/memories/${id}`, {}), 422, "VALIDATION_ERROR");
    expect((await getMemory(w, id)).importance).toBe(0.5);
  });

  it("another wallet gets 404, not 409, for an immutable memory", async () => {
    const a = newWallet();
    const b = newWallet();
    const id = await a.store(uniqueText("locked"), { immutable: true });
    expectError(await b.patch(`/v1/memories/${id}`, { importance: 0.2 }), 404, "NOT_FOUND");
  });
});

describe("batch update", () => {
  for (const [method, path] of [
    ["PATCH", "/v1/memories/batch"],
    ["POST", "/v1/memories/batch-update"],
  ] as const) {
    describe(`${method} ${path}`, () => {
      const send = (w: Wallet, body: unknown) => w.call(method, path, body);

      it("applies every valid update and writes history", async () => {
        const w = newWallet();
        const a = await w.store(uniqueText("a"));
        const b = await w.store(uniqueText("b"), { tags: ["keep"] });
        const content = `saxophone ${uniqueText("rewritten")}`;
        const res = await send(w, {
          updates: [
            { id: a, importance: 0.95, memory_type: "preference" },
            { id: b, content, pinned: true },
          ],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ updated: 2, errors: [] });
        expect(Object.keys(res.body).sort()).toEqual([
          "errors",
          "failed",
          "memories",
          "results",
          "tokens_used",
          "updated",
        ]);

        const memoryA = await getMemory(w, a);
        const memoryB = await getMemory(w, b);
        expect(memoryA).toMatchObject({
          importance: 0.95,
          memory_type: "preference",
        });
        expect(memoryB).toMatchObject({
          content,
          pinned: true,
          metadata: { tags: ["keep"] },
        });
        // Client extras: the updated memories in item order, as GET shows them; each item's
        // outcome; no failures; the embedding tokens of the one new content.
        expect(res.body.memories).toEqual([memoryA, memoryB]);
        expect(res.body.results).toEqual([
          { id: a, updated: true },
          { id: b, updated: true },
        ]);
        expect(res.body.failed).toBe(0);
        expect(Number.isInteger(res.body.tokens_used)).toBe(true);
        expect(res.body.tokens_used).toBeGreaterThan(0);
        expect(await searchIds(w, "saxophone")).toEqual([b]);
        expect((await history(w, a)).map((e) => e.changes)).toEqual([
          { importance: 0.95, memory_type: "preference" },
        ]);
        expect((await history(w, b)).map((e) => e.changes)).toEqual([{ content, pinned: true }]);
      });

      it("reports per-item failures and still applies the valid items", async () => {
        const w = newWallet();
        const other = newWallet();
        const ok1 = await w.store(uniqueText("ok1"));
        const locked = await w.store(uniqueText("locked"), { immutable: true });
        const invalid = await w.store(uniqueText("invalid"));
        const foreign = await other.store(uniqueText("foreign"), { importance: 0.3 });
        const ok2 = await w.store(uniqueText("ok2"));

        const res = await send(w, {
          updates: [
            { id: ok1, importance: 0.11 },
            { id: MISSING_ID, importance: 0.2 },
            { id: locked, importance: 0.2 },
            { id: invalid, importance: 5 },
            { id: foreign, importance: 0.2 },
            { id: ok2, namespace: "batch-ns" },
          ],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.updated).toBe(2);
        expect(res.body.errors.map((e: Json) => [e.id, e.status])).toEqual([
          [MISSING_ID, 404],
          [locked, 409],
          [invalid, 422],
          [foreign, 404],
        ]);
        for (const e of res.body.errors) {
          expect(typeof e.message).toBe("string");
          expect(e.message.length).toBeGreaterThan(0);
        }
        // Every item's outcome in order, failures with the same status and message as errors.
        const [e404, e409, e422, eForeign] = res.body.errors;
        expect(res.body.results).toEqual([
          { id: ok1, updated: true },
          { id: MISSING_ID, updated: false, status: 404, error: e404.message },
          { id: locked, updated: false, status: 409, error: e409.message },
          { id: invalid, updated: false, status: 422, error: e422.message },
          { id: foreign, updated: false, status: 404, error: eForeign.message },
          { id: ok2, updated: true },
        ]);
        expect(res.body.failed).toBe(4);
        // No content changed: nothing was embedded.
        expect(res.body.tokens_used).toBe(0);
        // Only the caller's updated memories, never another wallet's.
        expect(res.body.memories.map((m: Json) => m.id)).toEqual([ok1, ok2]);
        expect(res.body.memories[0]).toMatchObject({ id: ok1, importance: 0.11 });
        expect(res.body.memories[1]).toMatchObject({ id: ok2, namespace: "batch-ns" });

        expect((await getMemory(w, ok1)).importance).toBe(0.11);
        expect((await getMemory(w, ok2)).namespace).toBe("batch-ns");
        expect((await getMemory(w, locked)).importance).toBe(0.5);
        expect((await getMemory(w, invalid)).importance).toBe(0.5);
        expect((await getMemory(other, foreign)).importance).toBe(0.3);
        expect(await history(w, invalid)).toEqual([]);
        expect(await history(other, foreign)).toEqual([]);
      });

      it("reports malformed items with status 422 (missing id, bad id, no fields)", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("x"));
        const res = await send(w, {
          updates: [
            { importance: 0.2 },
            { id: "not-a-uuid", importance: 0.2 },
            { id },
            "not an object",
            { id, expires_at: new Date(Date.now() - 1000).toISOString() },
          ],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.updated).toBe(0);
        expect(res.body.errors.map((e: Json) => [e.id, e.status])).toEqual([
          [null, 422],
          ["not-a-uuid", 422],
          [id, 422],
          [null, 422],
          [id, 422],
        ]);
        expect(res.body.results.map((r: Json) => [r.id, r.updated, r.status])).toEqual([
          [null, false, 422],
          ["not-a-uuid", false, 422],
          [id, false, 422],
          [null, false, 422],
          [id, false, 422],
        ]);
        expect(res.body.failed).toBe(5);
        expect(res.body.memories).toEqual([]);
        expect(await history(w, id)).toEqual([]);
      });

      it("items run in order: locking an id makes a later item on it 409", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("seq"));
        const res = await send(w, {
          updates: [
            { id, importance: 0.7 },
            { id, immutable: true },
            { id, importance: 0.1 },
          ],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.updated).toBe(2);
        expect(res.body.errors.map((e: Json) => [e.id, e.status])).toEqual([[id, 409]]);
        expect(await getMemory(w, id)).toMatchObject({ importance: 0.7, immutable: true });
        // Each updated memory as that item left it.
        expect(res.body.memories).toHaveLength(2);
        expect(res.body.memories[0]).toMatchObject({ id, importance: 0.7, immutable: false });
        expect(res.body.memories[1]).toMatchObject({ id, importance: 0.7, immutable: true });
      });

      it("rejects the whole request with 422 when updates is missing, empty, over 100 or not JSON", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("untouched"));
        const bodies: unknown[] = [
          {},
          { updates: [] },
          { updates: Array.from({ length: 101 }, () => ({ id, importance: 0.9 })) },
          { updates: "nope" },
          { updates: { id, importance: 0.9 } },
        ];
        for (const body of bodies) {
          expectError(await send(w, body), 422, "VALIDATION_ERROR");
        }
        const malformed = await w.raw(method, path, '{"updates": [');
        expectError(malformed, 422, "VALIDATION_ERROR");
        expect((await getMemory(w, id)).importance).toBe(0.5);
        expect(await history(w, id)).toEqual([]);
      });

      it("accepts exactly 100 updates", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("hundred"));
        const updates = [
          { id, importance: 0.8 },
          ...Array.from({ length: 99 }, () => ({ id: crypto.randomUUID(), importance: 0.8 })),
        ];
        const res = await send(w, { updates });
        expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
        expect(res.body.updated).toBe(1);
        expect(res.body.errors).toHaveLength(99);
        expect(res.body.errors.every((e: Json) => e.status === 404)).toBe(true);
        expect((await getMemory(w, id)).importance).toBe(0.8);
      });
    });
  }
});
