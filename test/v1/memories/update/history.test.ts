/** PATCH /v1/memories/:id writes one history entry per update, with exactly the changed fields. */
import { describe, expect, it } from "vitest";
import { expectError, MISSING_ID, newWallet, uniqueText } from "../../../helpers";
import { future, history, patchOk } from "../fixtures";

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
