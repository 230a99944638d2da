/** PATCH /v1/memories/:id: every field alone and together, and what an update keeps. */
import { describe, expect, it } from "vitest";
import { type Json, newWallet, sleep, uniqueText } from "../../../helpers";
import { future, patchOk, searchIds } from "../fixtures";

describe("PATCH /v1/memories/:id fields", () => {
  it("content: re-embeds, keyword search follows the new text", async () => {
    const w = newWallet();
    const id = await w.store(`marmalade ${uniqueText("old")}`);
    const before = await w.getMemory(id);
    expect(await searchIds(w, "marmalade")).toEqual([id]);
    expect(await searchIds(w, "trombone")).toEqual([]);

    await sleep(10);
    const content = `trombone ${uniqueText("new")}`;
    const updated = await patchOk(w, id, { content });
    expect(updated.id).toBe(id);
    expect(updated.content).toBe(content);
    expect(updated.embedding_model).toBe(before.embedding_model);
    expect(typeof updated.embedding_model).toBe("string");

    expect((await w.getMemory(id)).content).toBe(content);
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
    const before = await w.getMemory(id);
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
    const after = await w.getMemory(id);
    expect(after.importance).toBe(0.9);
    expect(after.updated_at).toBe(res.updated_at);
  });

  it("metadata replaces the old metadata entirely", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText("meta"), { metadata: { a: 1, b: { c: 2 } } });
    const res = await patchOk(w, id, { metadata: { z: "new", nested: { deep: true } } });
    expect(res.metadata).toEqual({ z: "new", nested: { deep: true } });
    expect((await w.getMemory(id)).metadata).toEqual({ z: "new", nested: { deep: true } });

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

    const final = await w.getMemory(id);
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
    expect((await w.getMemory(id)).expires_at).toBe(at);

    const later = future(7_200_000);
    expect((await patchOk(w, id, { expires_at: later })).expires_at).toBe(later);

    const cleared = await patchOk(w, id, { expires_at: null });
    expect(cleared.expires_at).toBeNull();
    expect((await w.getMemory(id)).expires_at).toBeNull();
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
    expect((await w.getMemory(a)).content).toBe(content);
    expect((await w.getMemory(b)).content).toBe(content);
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
