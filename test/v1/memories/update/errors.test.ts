/** PATCH /v1/memories/:id refused: unknown or foreign ids, invalid values, immutable memories. */
import { describe, expect, it } from "vitest";
import { expectError, newWallet, uniqueText } from "../../../helpers";
import { expectNotFoundUnlessOwnLive, history, patchOk, text } from "../fixtures";

describe("PATCH /v1/memories/:id errors", () => {
  it("404 for unknown, deleted and another wallet's memory (left unchanged)", async () => {
    const { owner, other, id } = await expectNotFoundUnlessOwnLive(
      (w, memoryId) => w.patch(`/v1/memories/${memoryId}`, { importance: 0.1 }),
      { importance: 0.4 },
    );
    expectError(await other.patch(`/v1/memories/${id}`, { content: "hijack" }), 404, "NOT_FOUND");

    const m = await owner.getMemory(id);
    expect(m.importance).toBe(0.4);
    expect(m.content).toBe(text(0));
    expect(await history(owner, id)).toEqual([]);
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
    const m = await w.getMemory(id);
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

    const m = await w.getMemory(id);
    expect(m).toMatchObject({ immutable: true, pinned: false, importance: 0.6 });
    expect(m.content.startsWith("lock ")).toBe(true);
    expect((await history(w, id)).map((e) => e.changes)).toEqual([{ immutable: true }]);
  });

  it("a memory stored immutable rejects PATCH with 409; validation still comes first", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("born-locked"), { immutable: true });
    expectError(await w.patch(`/v1/memories/${id}`, { importance: 0.2 }), 409, "CONFLICT");
    expectError(await w.patch(`/v1/memories/${id}`, {}), 422, "VALIDATION_ERROR");
    expect((await w.getMemory(id)).importance).toBe(0.5);
  });

  it("another wallet gets 404, not 409, for an immutable memory", async () => {
    const a = newWallet();
    const b = newWallet();
    const id = await a.store(uniqueText("locked"), { immutable: true });
    expectError(await b.patch(`/v1/memories/${id}`, { importance: 0.2 }), 404, "NOT_FOUND");
  });
});
