/**
 * Pinning a memory: POST /v1/memories/core, its answer and what the core list then shows;
 * 404 for a memory that is not the caller's live one, 422 for a bad body.
 */
import { describe, expect, it } from "vitest";
import { expectError, ids, newWallet, uniqueText } from "../../../helpers";
import { expectNotFoundUnlessOwnLive } from "../fixtures";
import { core, pin } from "./fixtures";

describe("POST /v1/memories/core", () => {
  it("pins a memory: {pinned:true,id}, and it shows in the core list", async () => {
    const w = newWallet();
    const content = uniqueText("core");
    const id = await w.store(content, { importance: 0.7, memory_type: "preference", tags: ["a"] });
    const other = await w.store(uniqueText("not-core"));
    expect(await core(w)).toEqual({ memories: [], total: 0 });

    await pin(w, id);
    const m = (await w.get(`/v1/memories/${id}`)).body;
    expect(m.pinned).toBe(true);

    const list = await core(w);
    expect(list.total).toBe(1);
    expect(list.memories).toHaveLength(1);
    const item = list.memories[0];
    expect(item).toMatchObject({
      id,
      content,
      importance: 0.7,
      pinned: true,
      memory_type: "preference",
      tags: ["a"],
      created_at: m.created_at,
    });
    // Client extras (the Python SDK parses core items as full memories), as GET shows them.
    const pinned = (await w.get(`/v1/memories/${id}`)).body;
    expect(item).toMatchObject({
      namespace: "default",
      user_id: pinned.user_id,
      embedding_model: pinned.embedding_model,
      updated_at: pinned.updated_at,
      accessed_at: pinned.accessed_at,
      access_count: 0,
    });
    expect(typeof item.user_id).toBe("string");
    expect(typeof item.embedding_model).toBe("string");
    expect(ids(list)).not.toContain(other);

    // Pinning again is harmless.
    await pin(w, id);
    expect((await core(w)).total).toBe(1);
  });

  it("404 for unknown, deleted and another wallet's memory (left unpinned)", async () => {
    const { owner, other, id } = await expectNotFoundUnlessOwnLive((w, memoryId) =>
      w.post("/v1/memories/core", { memory_id: memoryId }),
    );
    expect((await owner.getMemory(id)).pinned).toBe(false);
    expect(await core(owner)).toEqual({ memories: [], total: 0 });
    expect(await core(other)).toEqual({ memories: [], total: 0 });
  });

  it("422 when memory_id is missing, not a UUID, or the body is not JSON", async () => {
    const w = newWallet();
    expectError(await w.post("/v1/memories/core", {}), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/memories/core"), 422, "VALIDATION_ERROR");
    expectError(
      await w.post("/v1/memories/core", { memory_id: "not-a-uuid" }),
      422,
      "VALIDATION_ERROR",
    );
    expectError(await w.post("/v1/memories/core", { memory_id: 7 }), 422, "VALIDATION_ERROR");
    const malformed = await w.raw("POST", "/v1/memories/core", '{"memory_id": ');
    expectError(malformed, 422, "VALIDATION_ERROR");
  });
});
