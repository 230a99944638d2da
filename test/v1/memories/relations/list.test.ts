/**
 * GET /v1/memories/:id/relations: both directions with the other end's summary, the
 * direction filter, and relations whose other end was deleted.
 */
import { describe, expect, it } from "vitest";
import { expectError, ISO, type Json, newWallet } from "../../../helpers";
import { expectOwnLiveMemoryOnly, graph, storeTexts, text } from "../fixtures";

describe("GET /v1/memories/:id/relations", () => {
  it("lists outgoing and incoming relations with the other end's summary", async () => {
    const w = newWallet();
    const a = await w.storeNew(text(0), { importance: 0.9, memory_type: "decision" });
    const b = await w.storeNew(text(1), {
      importance: 0.3,
      memory_type: "preference",
      namespace: "work",
    });
    const c = await w.storeNew(text(2), { importance: 0.7, memory_type: "observation" });
    const out = await w.relate(a, b, "supports", { why: "because" });
    const inc = await w.relate(c, a, "supersedes");

    const listed = await w.relationsOf(a);
    expect(listed).toHaveLength(2);
    const byId = new Map(listed.map((r: Json) => [r.id, r]));
    expect(byId.get(out.id)).toEqual({
      id: out.id,
      source_id: a,
      target_id: b,
      relation_type: "supports",
      metadata: { why: "because" },
      created_at: out.created_at,
      direction: "outgoing",
      memory: {
        id: b,
        content: text(1),
        importance: 0.3,
        memory_type: "preference",
        namespace: "work",
        deleted: false,
        deleted_at: null,
      },
    });
    expect(byId.get(inc.id)).toEqual({
      id: inc.id,
      source_id: c,
      target_id: a,
      relation_type: "supersedes",
      metadata: {},
      created_at: inc.created_at,
      direction: "incoming",
      memory: {
        id: c,
        content: text(2),
        importance: 0.7,
        memory_type: "observation",
        namespace: "default",
        deleted: false,
        deleted_at: null,
      },
    });

    // Seen from b, the same relation is incoming and its other end is a.
    const fromB = await w.relationsOf(b);
    expect(fromB).toHaveLength(1);
    expect(fromB[0].id).toBe(out.id);
    expect(fromB[0].direction).toBe("incoming");
    expect(fromB[0].memory).toEqual({
      id: a,
      content: text(0),
      importance: 0.9,
      memory_type: "decision",
      namespace: "default",
      deleted: false,
      deleted_at: null,
    });
  });

  it("returns an empty list for a memory without relations", async () => {
    const w = newWallet();
    const [a = ""] = await storeTexts(w, 1);
    expect(await w.getOk(`/v1/memories/${a}/relations`)).toEqual({ relations: [] });
  });

  it("filters by direction", async () => {
    const w = newWallet();
    const [a = "", b = "", c = "", d = ""] = await storeTexts(w, 4);
    const ab = await w.relate(a, b, "related_to");
    const ac = await w.relate(a, c, "supports");
    const da = await w.relate(d, a, "contradicts");

    const outgoing = await w.relationsOf(a, "?direction=outgoing");
    expect(outgoing.map((r: Json) => r.id).sort()).toEqual([ab.id, ac.id].sort());
    expect(outgoing.every((r: Json) => r.direction === "outgoing")).toBe(true);

    const incoming = await w.relationsOf(a, "?direction=incoming");
    expect(incoming.map((r: Json) => r.id)).toEqual([da.id]);
    expect(incoming[0].direction).toBe("incoming");
    expect(incoming[0].memory.id).toBe(d);

    const all = await w.relationsOf(a);
    expect(all.map((r: Json) => r.id).sort()).toEqual([ab.id, ac.id, da.id].sort());

    expectError(
      await w.get(`/v1/memories/${a}/relations?direction=sideways`),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("drops relations whose other end was deleted", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeTexts(w, 3);
    await w.relate(a, b);
    const ac = await w.relate(c, a);
    expect(await w.relationsOf(a)).toHaveLength(2);
    expect((await w.del(`/v1/memories/${b}`)).status).toBe(200);
    const listed = await w.relationsOf(a);
    expect(listed.map((r: Json) => r.id)).toEqual([ac.id]);
    expect(await w.relationsOf(a, "?direction=outgoing")).toEqual([]);
  });

  it("keeps a memory's supersedes relations to deleted memories, marked deleted", async () => {
    const w = newWallet();
    const [a = "", b = "", c = "", d = "", e = ""] = await storeTexts(w, 5);
    const ab = await w.relate(a, b, "supersedes");
    const ca = await w.relate(c, a, "supersedes");
    const ad = await w.relate(a, d, "related_to");
    const ae = await w.relate(a, e, "supersedes");
    for (const id of [b, c, d]) expect((await w.del(`/v1/memories/${id}`)).status).toBe(200);

    // a supersedes b, which is deleted: listed, the other end marked deleted. c's incoming
    // supersedes and the related_to to d point at deleted memories that a does not supersede.
    const listed = await w.relationsOf(a);
    expect(listed.map((r: Json) => r.id)).toEqual([ab.id, ae.id]);
    const [toB, toE] = listed;
    expect(toB).toMatchObject({
      source_id: a,
      target_id: b,
      relation_type: "supersedes",
      direction: "outgoing",
      memory: { id: b, content: text(1), deleted: true },
    });
    expect(toB.memory.deleted_at).toMatch(ISO);
    expect(toE.memory).toMatchObject({ id: e, deleted: false, deleted_at: null });
    expect(listed.map((r: Json) => r.id)).not.toContain(ca.id);
    expect(listed.map((r: Json) => r.id)).not.toContain(ad.id);
    expect((await w.relationsOf(a, "?direction=outgoing")).map((r: Json) => r.id)).toEqual([
      ab.id,
      ae.id,
    ]);
    expect(await w.relationsOf(a, "?direction=incoming")).toEqual([]);

    // The graph stays a graph of live memories.
    const g = await graph(w, a);
    expect(g.nodes.map((n: Json) => n.id)).toEqual([e]);
    // The deleted end has no relations list of its own, and another wallet sees nothing.
    expectError(await w.get(`/v1/memories/${b}/relations`), 404, "NOT_FOUND");
    expectError(await newWallet().get(`/v1/memories/${a}/relations`), 404, "NOT_FOUND");
    // The relation can still be removed through the live memory.
    const removed = await w.del(`/v1/memories/${a}/relations/${ab.id}`);
    expect(removed.status).toBe(200);
    expect((await w.relationsOf(a)).map((r: Json) => r.id)).toEqual([ae.id]);
  });

  it("answers 404 for an unknown, deleted or another wallet's memory, 422 for a bad id", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    await w.relate(a, b);
    await expectOwnLiveMemoryOnly(w, a, "relations");
  });
});
