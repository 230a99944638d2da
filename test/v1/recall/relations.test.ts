/** POST /v1/recall: include_relations, pinned memories (no decay) and immutable ones. */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userIdOf, withDb } from "../../db";
import { ids, type Json, newWallet, sorted } from "../../helpers";
import { recall } from "./fixtures";

describe("POST /v1/recall: relations, pinned and immutable memories", () => {
  it("include_relations lists each memory's relations with live other ends", async () => {
    const w = newWallet();
    const [x, y, z, gone] = (await w.storeMany([
      { content: "Project Falcon launch checklist approved by the board" },
      { content: "Board meeting minutes from the spring session" },
      { content: "Supplier contract for rocket engines was signed" },
      { content: "Old draft of the launch timeline, now obsolete" },
    ])) as [string, string, string, string];
    const r1 = (await w.relate(x, y, "related_to")).id;
    const r2 = (await w.relate(z, x, "supports")).id;
    await w.relate(x, gone, "supersedes");
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const body = await recall(w, {
      query: "Project Falcon launch checklist",
      limit: 1,
      include_relations: true,
    });
    expect(ids(body)).toEqual([x]);
    const m = body.memories[0];
    expect(m._signals.relation_count).toBe(2);
    expect(m.relations).toEqual([
      { id: r1, source_id: x, target_id: y, relation_type: "related_to", direction: "outgoing" },
      { id: r2, source_id: z, target_id: x, relation_type: "supports", direction: "incoming" },
    ]);

    const all = await recall(w, {
      query: "board meeting rocket",
      limit: 10,
      include_relations: true,
    });
    expect(all.memories).toHaveLength(3);
    for (const mem of all.memories) {
      expect(Array.isArray(mem.relations)).toBe(true);
      expect(mem.relations).toHaveLength(mem.id === x ? 2 : 1);
      expect(mem._signals.relation_count).toBe(mem.id === x ? 2 : 1);
    }
    const plain = await recall(w, { query: "Project Falcon launch checklist", limit: 1 });
    expect(plain.memories[0].relations).toBeUndefined();
    const off = await recall(w, {
      query: "Project Falcon launch checklist",
      limit: 1,
      include_relations: false,
    });
    expect(off.memories[0].relations).toBeUndefined();
  });

  it("a memory without relations gets an empty list", async () => {
    const w = newWallet();
    const id = await w.storeNew("Standalone fact about glaciers");
    const body = await recall(w, { query: "glaciers", include_relations: true });
    expect(body.memories[0]).toMatchObject({ id, relations: [] });
  });

  it("pinned memories are exempt from decay; unpinned ones decay from accessed_at", async () => {
    const w = newWallet();
    const [pinned, unpinned, fresh] = (await w.storeMany([
      { content: "Lighthouse maintenance schedule: repaint the lantern room", pinned: true },
      { content: "Lighthouse maintenance schedule: replace the foghorn battery" },
      { content: "Lighthouse maintenance schedule: wash the spiral staircase windows" },
    ])) as [string, string, string];
    await withDb(async (db) => {
      const userId = await userIdOf(db, w);
      await db.execute(sql`
        UPDATE memories SET accessed_at = now() - interval '60 days',
          created_at = now() - interval '60 days', occurred_at = now() - interval '60 days'
        WHERE user_id = ${userId} AND id IN (${pinned}, ${unpinned})`);
    });
    const body = await recall(w, { query: "lighthouse maintenance schedule", limit: 3 });
    const byId = new Map<string, Json>(body.memories.map((m: Json) => [m.id, m]));
    expect(byId.size).toBe(3);
    expect(byId.get(pinned)._signals.type_decay).toBe(1);
    expect(byId.get(unpinned)._signals.type_decay).toBeCloseTo(0.5, 4);
    expect(byId.get(fresh)._signals.type_decay).toBeGreaterThan(0.9999);
    expect(byId.get(pinned)._signals.recency).toBeCloseTo(Math.exp(-2), 4);
    expect(byId.get(pinned).similarity).toBeGreaterThan(byId.get(unpinned).similarity);

    // Pinning later (PATCH) lifts the decay too.
    await w.memoryAfterAccesses(unpinned, 1);
    await withDb(async (db) => {
      const userId = await userIdOf(db, w);
      await db.execute(sql`
        UPDATE memories SET accessed_at = now() - interval '60 days'
        WHERE user_id = ${userId} AND id = ${unpinned}`);
    });
    expect((await w.patch(`/v1/memories/${unpinned}`, { pinned: true })).status).toBe(200);
    const again = await recall(w, { query: "replace the foghorn battery", limit: 1 });
    expect(again.memories[0]).toMatchObject({ id: unpinned, pinned: true });
    expect(again.memories[0]._signals.type_decay).toBe(1);
  });

  it("immutable memories are recalled normally, marked immutable", async () => {
    const w = newWallet();
    const locked = await w.storeNew("The founding charter was signed in 1998 in Lisbon", {
      immutable: true,
      importance: 0.9,
    });
    const patched = await w.storeNew("The charter amendment was proposed in 2004");
    expect((await w.patch(`/v1/memories/${patched}`, { immutable: true })).status).toBe(200);
    const body = await recall(w, { query: "founding charter signed in Lisbon", limit: 5 });
    expect(ids(body)[0]).toBe(locked);
    expect(sorted(ids(body))).toEqual(sorted([locked, patched]));
    expect(body.memories[0]).toMatchObject({ importance: 0.9, access_count: 0 });
    // `immutable` beside the spec's fields: the public Python SDK reads a missing one as false,
    // so it reported every recalled memory as mutable.
    for (const m of body.memories) expect(m.immutable, m.id).toBe(true);
    expect((await w.memoryAfterAccesses(locked, 1)).access_count).toBe(1);
    const open = await w.storeNew("The charter museum opens at ten");
    const mixed = await recall(w, { query: "charter museum opens", limit: 5 });
    const flags = Object.fromEntries(mixed.memories.map((m: Json) => [m.id, m.immutable]));
    expect(flags).toEqual({ [locked]: true, [patched]: true, [open]: false });
  });
});
