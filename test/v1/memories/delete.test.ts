/**
 * Deleting memories: DELETE /v1/memories/:id, bulk DELETE /v1/memories {ids}, and the client
 * aliases POST /v1/memories/bulk-delete and POST /v1/memories/batch-delete.
 * Every test uses fresh wallets.
 */
import { describe, expect, it } from "vitest";
import {
  expectError,
  type Json,
  MISSING_ID,
  newWallet,
  sorted,
  uniqueText,
  type Wallet,
} from "../../helpers";

async function listIds(w: Wallet): Promise<string[]> {
  const res = await w.get("/v1/memories?limit=100");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.memories.map((m: Json) => m.id).sort();
}

/** Bodies the bulk delete aliases refuse whatever the ids: none given, an empty list, 101. */
const BAD_ID_LISTS = [
  {},
  { ids: [] },
  { ids: Array.from({ length: 101 }, () => crypto.randomUUID()) },
];

describe("DELETE /v1/memories/:id", () => {
  it("soft-deletes: {deleted:true,id}, then 404 everywhere and gone from lists", async () => {
    const w = newWallet();
    const id = await w.store(`pelican ${uniqueText("doomed")}`, { tags: ["gone"], pinned: true });
    const keep = await w.store(uniqueText("keep"));

    const res = await w.del(`/v1/memories/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ deleted: true, id });

    expectError(await w.get(`/v1/memories/${id}`), 404, "NOT_FOUND");
    expect(await listIds(w)).toEqual([keep]);
    expect((await w.get("/v1/memories")).body.total).toBe(1);
    expect((await w.get("/v1/memories/count")).body).toEqual({ count: 1 });
    expect((await w.get("/v1/tags")).body).toEqual({ tags: [] });
    expect((await w.get("/v1/memories/core")).body).toEqual({ memories: [], total: 0 });
    const search = await w.post("/v1/search", { query: "pelican" });
    expect(search.status).toBe(200);
    expect(search.body.memories).toEqual([]);
    expect(search.body.total).toBe(0);
    expectError(await w.patch(`/v1/memories/${id}`, { importance: 0.1 }), 404, "NOT_FOUND");
    expectError(await w.get(`/v1/memories/${id}/history`), 404, "NOT_FOUND");

    // A second delete finds nothing.
    expectError(await w.del(`/v1/memories/${id}`), 404, "NOT_FOUND");
  });

  it("404 for an unknown id", async () => {
    const w = newWallet();
    expectError(await w.del(`/v1/memories/${MISSING_ID}`), 404, "NOT_FOUND");
  });

  it("404 for another wallet's memory, which is not deleted", async () => {
    const owner = newWallet();
    const intruder = newWallet();
    const id = await owner.store(uniqueText("owned"));
    expectError(await intruder.del(`/v1/memories/${id}`), 404, "NOT_FOUND");
    expect((await owner.get(`/v1/memories/${id}`)).status).toBe(200);
    expect(await listIds(owner)).toEqual([id]);
  });

  it("409 for an immutable memory, which is kept", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("locked"), { immutable: true });
    expectError(await w.del(`/v1/memories/${id}`), 409, "CONFLICT");
    expect((await w.get(`/v1/memories/${id}`)).body.immutable).toBe(true);
    expect(await listIds(w)).toEqual([id]);
  });

  it("422 for a non-UUID id", async () => {
    const w = newWallet();
    expectError(await w.del("/v1/memories/not-a-uuid"), 422, "VALIDATION_ERROR");
    expectError(await w.del("/v1/memories/1234"), 422, "VALIDATION_ERROR");
  });

  it("accepts the id in upper case", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("shouty"));
    const res = await w.del(`/v1/memories/${id.toUpperCase()}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.deleted).toBe(true);
    expect(String(res.body.id).toLowerCase()).toBe(id);
    expect(await listIds(w)).toEqual([]);
  });

  it("does not need a JSON body even with a JSON content type", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("cli"));
    const res = await w.raw("DELETE", `/v1/memories/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ deleted: true, id });
  });
});

/** Own (two), unknown, immutable, another wallet's and an already-deleted id. */
async function mixedIds() {
  const w = newWallet();
  const other = newWallet();
  const own1 = await w.store(uniqueText("own1"));
  const own2 = await w.store(uniqueText("own2"));
  const locked = await w.store(uniqueText("locked"), { immutable: true });
  const survivor = await w.store(uniqueText("survivor"));
  const deleted = await w.store(uniqueText("deleted"));
  expect((await w.del(`/v1/memories/${deleted}`)).status).toBe(200);
  const foreign = await other.store(uniqueText("foreign"));
  return { w, other, own1, own2, locked, survivor, deleted, foreign };
}

describe("DELETE /v1/memories (bulk)", () => {
  it("deletes the caller's ids and lists the rest in errors", async () => {
    const m = await mixedIds();
    const res = await m.w.del("/v1/memories", {
      ids: [m.own1, MISSING_ID, m.locked, m.foreign, m.own2, m.deleted],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.deleted).toBe(2);
    expect(sorted(res.body.errors)).toEqual(sorted([MISSING_ID, m.locked, m.foreign, m.deleted]));

    expect(await listIds(m.w)).toEqual(sorted([m.locked, m.survivor]));
    expectError(await m.w.get(`/v1/memories/${m.own1}`), 404, "NOT_FOUND");
    expectError(await m.w.get(`/v1/memories/${m.own2}`), 404, "NOT_FOUND");
    // The other wallet's memory is untouched.
    expect((await m.other.get(`/v1/memories/${m.foreign}`)).status).toBe(200);
    expect(await listIds(m.other)).toEqual([m.foreign]);
  });

  it("errors is empty when every id was deleted; a repeated id counts once", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"));
    const b = await w.store(uniqueText("b"));
    const res = await w.del("/v1/memories", { ids: [a, b, a] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ deleted: 2, errors: [] });
    expect(await listIds(w)).toEqual([]);

    const again = await w.del("/v1/memories", { ids: [a] });
    expect(again.body).toEqual({ deleted: 0, errors: [a] });
  });

  it("422 when ids is missing, empty, over 100, not an array or holds a non-UUID", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("untouched"));
    const bodies: unknown[] = [
      undefined,
      {},
      { ids: [] },
      { ids: [id, ...Array.from({ length: 100 }, () => crypto.randomUUID())] },
      { ids: id },
      { ids: [id, "not-a-uuid"] },
      { ids: [id, 42] },
    ];
    for (const body of bodies) {
      const res = await w.del("/v1/memories", body);
      expect(res.status, JSON.stringify(body)?.slice(0, 80)).toBe(422);
      expectError(res, 422, "VALIDATION_ERROR");
    }
    const malformed = await w.raw("DELETE", "/v1/memories", '{"ids": [');
    expectError(malformed, 422, "VALIDATION_ERROR");
    // Nothing was deleted by the rejected requests.
    expect(await listIds(w)).toEqual([id]);
  });

  it("accepts exactly 100 ids", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("hundred"));
    const unknown = Array.from({ length: 99 }, () => crypto.randomUUID());
    const res = await w.del("/v1/memories", { ids: [id, ...unknown] });
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
    expect(res.body.deleted).toBe(1);
    expect(sorted(res.body.errors)).toEqual(sorted(unknown));
  });
});

describe("POST /v1/memories/bulk-delete (alias)", () => {
  it("answers {deleted, errors} like the bulk DELETE", async () => {
    const m = await mixedIds();
    const res = await m.w.post("/v1/memories/bulk-delete", {
      ids: [m.own1, MISSING_ID, m.locked, m.foreign, m.own2],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.deleted).toBe(2);
    expect(sorted(res.body.errors)).toEqual(sorted([MISSING_ID, m.locked, m.foreign]));
    expect(await listIds(m.w)).toEqual(sorted([m.locked, m.survivor]));
    expect(await listIds(m.other)).toEqual([m.foreign]);
  });

  it("422 for missing, empty or over-100 ids", async () => {
    const w = newWallet();
    for (const body of [...BAD_ID_LISTS, { ids: ["nope"] }]) {
      expectError(await w.post("/v1/memories/bulk-delete", body), 422, "VALIDATION_ERROR");
    }
  });
});

describe("POST /v1/memories/batch-delete (alias)", () => {
  it("answers {results:[{id, deleted, error}]}, one per id", async () => {
    const m = await mixedIds();
    const res = await m.w.post("/v1/memories/batch-delete", {
      ids: [m.own1, MISSING_ID, m.locked, m.foreign],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byId = new Map<string, Json>(res.body.results.map((r: Json) => [r.id, r]));
    expect(res.body.results).toHaveLength(4);
    expect(byId.get(m.own1)).toEqual({ id: m.own1, deleted: true, error: null });
    for (const id of [MISSING_ID, m.locked, m.foreign]) {
      const r = byId.get(id);
      expect(r?.deleted, id).toBe(false);
      expect(typeof r?.error).toBe("string");
      expect(r?.error.length).toBeGreaterThan(0);
    }
    expect(await listIds(m.w)).toEqual(sorted([m.locked, m.own2, m.survivor]));
    expect(await listIds(m.other)).toEqual([m.foreign]);
  });

  it("422 for missing, empty or over-100 ids", async () => {
    const w = newWallet();
    for (const body of [...BAD_ID_LISTS, { ids: [MISSING_ID, "nope"] }]) {
      expectError(await w.post("/v1/memories/batch-delete", body), 422, "VALIDATION_ERROR");
    }
  });
});
