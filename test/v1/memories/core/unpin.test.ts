/** Unpinning a memory: DELETE /v1/memories/core/:id, and its 404s and 422. */
import { describe, expect, it } from "vitest";
import { expectError, ids, MISSING_ID, newWallet, uniqueText } from "../../../helpers";
import { core } from "./fixtures";

describe("DELETE /v1/memories/core/:id", () => {
  it("unpins: {unpinned:true,id}; the memory still exists, unpinned", async () => {
    const w = newWallet();
    const content = uniqueText("unpin-me");
    const id = await w.store(content, { pinned: true });
    const res = await w.del(`/v1/memories/core/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ unpinned: true, id });

    const m = await w.get(`/v1/memories/${id}`);
    expect(m.status).toBe(200);
    expect(m.body.pinned).toBe(false);
    expect(m.body.content).toBe(content);
    expect(await core(w)).toEqual({ memories: [], total: 0 });
    expect((await w.get("/v1/memories")).body.total).toBe(1);

    // Now it is not pinned: a second unpin is 404.
    expectError(await w.del(`/v1/memories/core/${id}`), 404, "NOT_FOUND");
  });

  it("404 for a memory that is not pinned, unknown or deleted", async () => {
    const w = newWallet();
    const plain = await w.store(uniqueText("plain"));
    const gone = await w.store(uniqueText("gone"), { pinned: true });
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);
    expectError(await w.del(`/v1/memories/core/${plain}`), 404, "NOT_FOUND");
    expectError(await w.del(`/v1/memories/core/${MISSING_ID}`), 404, "NOT_FOUND");
    expectError(await w.del(`/v1/memories/core/${gone}`), 404, "NOT_FOUND");
    expect((await w.get(`/v1/memories/${plain}`)).body.pinned).toBe(false);
  });

  it("404 for another wallet's pinned memory, which stays pinned", async () => {
    const a = newWallet();
    const b = newWallet();
    const id = await a.store(uniqueText("a-core"), { pinned: true });
    expectError(await b.del(`/v1/memories/core/${id}`), 404, "NOT_FOUND");
    expect((await a.get(`/v1/memories/${id}`)).body.pinned).toBe(true);
    expect(ids(await core(a))).toEqual([id]);
  });

  it("422 for a non-UUID id", async () => {
    const w = newWallet();
    expectError(await w.del("/v1/memories/core/not-a-uuid"), 422, "VALIDATION_ERROR");
  });
});
