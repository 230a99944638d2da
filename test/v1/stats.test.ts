/** GET /v1/stats: exact figures over the wallet's live memories and relations. */
import { describe, expect, it } from "vitest";
import { expireNow } from "../db";
import { expectError, type Json, newWallet, request, type Wallet } from "../helpers";
import { createdAt, onlyNamespace } from "./fixtures";

const EMPTY_STATS = {
  total_memories: 0,
  pinned_count: 0,
  never_accessed: 0,
  total_accesses: 0,
  avg_importance: 0,
  oldest_memory: null,
  newest_memory: null,
  by_type: [],
  by_namespace: [],
  total_relations: 0,
};

/** The stats of a wallet whose one live memory is unpinned, never accessed and in "default". */
async function oneMemoryStats(w: Wallet, id: string, importance: number, memoryType: string) {
  const created = await createdAt(w, id);
  return {
    ...EMPTY_STATS,
    total_memories: 1,
    never_accessed: 1,
    avg_importance: importance,
    oldest_memory: created,
    newest_memory: created,
    by_type: [{ memory_type: memoryType, count: 1 }],
    by_namespace: [{ namespace: "default", count: 1 }],
  };
}

describe("GET /v1/stats", () => {
  /**
   * Four live memories (importance 0.25, 0.5, 0.75, 1: average 0.625), two pinned, plus a
   * pinned one that is deleted; three relations, one of them to the deleted memory.
   */
  async function seed(w: Wallet) {
    const [m1 = "", m2 = "", m3 = "", m4 = "", m5 = ""] = await w.storeEach(
      [
        {
          content: "Use Postgres for the analytics warehouse",
          namespace: "alpha",
          memory_type: "decision",
          importance: 0.25,
          pinned: true,
        },
        {
          content: "Adopt trunk-based development next quarter",
          namespace: "alpha",
          memory_type: "decision",
          importance: 0.5,
        },
        {
          content: "Likes window seats on long flights",
          namespace: "beta",
          memory_type: "preference",
          importance: 0.75,
          pinned: true,
        },
        { content: "The office closes early on Fridays in August", importance: 1 },
        {
          content: "Saw a heron at the pond this morning",
          namespace: "beta",
          memory_type: "observation",
          pinned: true,
        },
      ],
      { pauseMs: 5 },
    );
    await w.relate(m1, m2);
    await w.relate(m3, m4);
    await w.relate(m1, m5);
    expect((await w.del(`/v1/memories/${m5}`)).status).toBe(200);
    return { m1, m2, m3, m4, m5 };
  }

  it("reports exact figures for the wallet's live memories", async () => {
    const w = newWallet();
    const { m1, m4 } = await seed(w);
    expect(await w.getOk("/v1/stats")).toEqual({
      total_memories: 4,
      pinned_count: 2,
      never_accessed: 4,
      total_accesses: 0,
      avg_importance: 0.625,
      oldest_memory: await createdAt(w, m1),
      newest_memory: await createdAt(w, m4),
      by_type: [
        { memory_type: "decision", count: 2 },
        { memory_type: "general", count: 1 },
        { memory_type: "preference", count: 1 },
      ],
      by_namespace: [
        { namespace: "alpha", count: 2 },
        { namespace: "beta", count: 1 },
        { namespace: "default", count: 1 },
      ],
      total_relations: 2,
    });
  });

  it("filters by namespace", async () => {
    const w = newWallet();
    const { m1, m2, m3 } = await seed(w);
    expect(await w.getOk("/v1/stats?namespace=alpha")).toEqual({
      total_memories: 2,
      pinned_count: 1,
      never_accessed: 2,
      total_accesses: 0,
      avg_importance: 0.375,
      oldest_memory: await createdAt(w, m1),
      newest_memory: await createdAt(w, m2),
      by_type: [{ memory_type: "decision", count: 2 }],
      by_namespace: [{ namespace: "alpha", count: 2 }],
      total_relations: 1,
    });
    const beta = await w.getOk("/v1/stats?namespace=beta");
    expect(beta.total_memories).toBe(1);
    expect(beta.pinned_count).toBe(1);
    expect(beta.avg_importance).toBe(0.75);
    expect(beta.oldest_memory).toBe(await createdAt(w, m3));
    expect(beta.newest_memory).toBe(beta.oldest_memory);
    expect(beta.by_type).toEqual([{ memory_type: "preference", count: 1 }]);
    expect(await w.getOk("/v1/stats?namespace=nothing-here")).toEqual(EMPTY_STATS);
  });

  it("counts accesses made by recall", async () => {
    const w = newWallet();
    const target = await w.storeNew("Marmalade is made from bitter Seville oranges", {
      importance: 0.5,
    });
    await w.storeNew("Tram line four runs every twelve minutes", { importance: 0.5 });
    for (let i = 0; i < 2; i++) {
      const res = await w.post("/v1/recall", {
        query: "Marmalade is made from bitter Seville oranges",
        limit: 1,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.memories.map((m: Json) => m.id)).toEqual([target]);
    }
    // Access is recorded after the response: wait until both are visible.
    await w.memoryAfterAccesses(target, 2);
    const stats = await w.getOk("/v1/stats");
    expect(stats.total_memories).toBe(2);
    expect(stats.total_accesses).toBe(2);
    expect(stats.never_accessed).toBe(1);
  });

  it("gives a fresh wallet zeros and nulls", async () => {
    const w = newWallet();
    const res = await w.get("/v1/stats");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EMPTY_STATS);
  });

  it("stops counting a memory once it is deleted or expired", async () => {
    const w = newWallet();
    const a = await w.storeNew("Renew the car insurance before March", { importance: 0.2 });
    // Live while it is related and counted; its expiry is then moved into the past in the
    // database (expireNow).
    const b = await w.storeNew("The cinema ticket code is 4471", {
      importance: 0.4,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const c = await w.storeNew("Water the ferns twice a week", { importance: 1, pinned: true });
    await w.relate(a, b);
    await w.relate(c, a);
    const before = await w.getOk("/v1/stats");
    expect(before.total_memories).toBe(3);
    expect(before.total_relations).toBe(2);

    expect((await w.del(`/v1/memories/${c}`)).status).toBe(200);
    await expireNow([b]);
    const after = await w.getOk("/v1/stats");
    expect(after).toEqual(await oneMemoryStats(w, a, 0.2, "general"));
    expect(await w.getOk("/v1/namespaces")).toEqual(await onlyNamespace(w, "default", a));
  });

  it("never counts another wallet's memories or relations", async () => {
    const a = newWallet();
    const b = newWallet();
    await seed(a);
    const x = await b.storeNew("Borrowed a drill from the neighbour on Sunday", {
      importance: 0.9,
      memory_type: "project",
    });
    expect(await b.getOk("/v1/stats")).toEqual(await oneMemoryStats(b, x, 0.9, "project"));
    expect(await b.getOk("/v1/stats?namespace=alpha")).toEqual(EMPTY_STATS);
    expect((await a.getOk("/v1/stats")).total_memories).toBe(4);
  });

  it("rejects an over-long namespace and requires authentication", async () => {
    const w = newWallet();
    expectError(await w.get(`/v1/stats?namespace=${"n".repeat(256)}`), 422, "VALIDATION_ERROR");
    expectError(await request("GET", "/v1/stats"), 401, "UNAUTHORIZED");
  });
});
