/**
 * POST /v1/recall returns only the caller's live memories (not deleted, not expired, not
 * another wallet's), and counts an access for each memory it returns.
 */
import { describe, expect, it } from "vitest";
import { expireNow } from "../../db";
import { ids, newWallet, sleep, sorted } from "../../helpers";
import { recall } from "./fixtures";

describe("POST /v1/recall: only the caller's live memories", () => {
  it("never returns deleted memories or another wallet's", async () => {
    const a = newWallet();
    const b = newWallet();
    const text = "The secret rendezvous point is the old oak tree by the river";
    const kept = await a.storeNew("Secret rendezvous fallback: the stone bridge on the river road");
    const gone = await a.storeNew(text);
    const theirs = await b.storeNew(text);
    expect(sorted(ids(await recall(a, { query: text, limit: 10 })))).toEqual(sorted([kept, gone]));
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);
    const after = await recall(a, { query: text, limit: 10 });
    expect(ids(after)).toEqual([kept]);
    const bulkGone = await a.storeNew("Rendezvous backup plan: meet at the train station clock");
    expect((await a.del("/v1/memories", { ids: [bulkGone] })).status).toBe(200);
    expect(ids(await recall(a, { query: "rendezvous train station clock", limit: 10 }))).toEqual([
      kept,
    ]);
    const forB = await recall(b, { query: text, limit: 10 });
    expect(ids(forB)).toEqual([theirs]);
    const emptyWallet = newWallet();
    expect((await recall(emptyWallet, { query: text })).memories).toEqual([]);
  });

  it("stops returning a memory once it expires", async () => {
    const w = newWallet();
    const forever = await w.storeNew("Parking permit number for the north garage is 4471");
    const soon = await w.storeNew("Temporary parking code for the north garage is 9902", {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const before = await recall(w, { query: "north garage parking", limit: 10 });
    expect(sorted(ids(before))).toEqual(sorted([forever, soon]));
    await expireNow([soon]);
    const after = await recall(w, { query: "north garage parking", limit: 10 });
    expect(ids(after)).toEqual([forever]);
  });
});

describe("POST /v1/recall: access counting", () => {
  it("increments access_count by exactly one for each returned memory only", async () => {
    const w = newWallet();
    const [hit1, hit2, miss1, miss2] = await w.storeMany([
      { content: "Hummingbird feeder needs fresh nectar every three days" },
      { content: "Hummingbird nest spotted in the lilac bush" },
      { content: "Tax return documents are in the blue folder" },
      { content: "The snow tires are stored in the garage loft" },
    ]);
    const before = await w.getMemory(hit1 as string);
    expect(before.access_count).toBe(0);
    const body = await recall(w, { query: "hummingbird feeder nest", limit: 2 });
    expect(sorted(ids(body))).toEqual(sorted([hit1 as string, hit2 as string]));
    for (const m of body.memories) expect(m.access_count).toBe(0);

    for (const id of [hit1, hit2] as string[]) {
      const m = await w.memoryAfterAccesses(id, 1);
      expect(m.access_count).toBe(1);
      expect(Date.parse(m.accessed_at)).toBeGreaterThan(Date.parse(before.accessed_at));
    }
    await sleep(300);
    for (const id of [hit1, hit2] as string[]) expect((await w.getMemory(id)).access_count).toBe(1);
    for (const id of [miss1, miss2] as string[]) {
      const m = await w.getMemory(id);
      expect(m.access_count).toBe(0);
      expect(m.accessed_at).toBe(m.created_at);
    }

    // A second recall counts again, and the response shows the count before it.
    const again = await recall(w, { query: "hummingbird feeder nest", limit: 2 });
    for (const m of again.memories) expect(m.access_count).toBe(1);
    for (const id of [hit1, hit2] as string[]) {
      expect((await w.memoryAfterAccesses(id, 2)).access_count).toBe(2);
    }
    expect((await w.getMemory(miss1 as string)).access_count).toBe(0);
  });

  it("a recall that returns nothing changes nothing", async () => {
    const w = newWallet();
    const id = await w.storeNew("Lone memory in the default namespace", { namespace: "solo" });
    const body = await recall(w, { query: "lone memory", namespace: "elsewhere" });
    expect(body.memories).toEqual([]);
    await sleep(300);
    expect((await w.getMemory(id)).access_count).toBe(0);
  });
});
