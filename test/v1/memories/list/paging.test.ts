/** GET /v1/memories: paging (limit, offset, the clamp at 100) and the default order. */
import { describe, expect, it } from "vitest";
import { expectError, ids, newWallet, sleep, sorted, UUID, uniqueText } from "../../../helpers";
import { list } from "../fixtures";

describe("GET /v1/memories paging", () => {
  it("defaults to limit 20 and offset 0, and total counts every match", async () => {
    const w = newWallet();
    const stored = await w.storeMany(
      Array.from({ length: 23 }, (_, i) => ({ content: uniqueText(`item${i}`) })),
    );
    expect(stored).toHaveLength(23);

    const page = await list(w);
    expect(page.memories).toHaveLength(20);
    expect(page).toMatchObject({ total: 23, limit: 20, offset: 0 });

    const rest = await list(w, "offset=20");
    expect(rest.memories).toHaveLength(3);
    expect(rest).toMatchObject({ total: 23, limit: 20, offset: 20 });
    // The two pages together are exactly the stored memories, with no overlap.
    expect(sorted([...ids(page), ...ids(rest)])).toEqual(sorted(stored));

    const beyond = await list(w, "offset=50");
    expect(beyond.memories).toEqual([]);
    expect(beyond).toMatchObject({ total: 23, offset: 50 });
  });

  it("applies and echoes limit and offset", async () => {
    const w = newWallet();
    const stored: string[] = [];
    for (let i = 0; i < 5; i++)
      stored.push(await w.store(uniqueText(`p${i}`), { importance: i / 10 }));

    const one = await list(w, "limit=1");
    expect(one.memories).toHaveLength(1);
    expect(one).toMatchObject({ total: 5, limit: 1, offset: 0 });

    // Ordered by importance ascending, limit 2 offset 1 is the 2nd and 3rd stored.
    const page = await list(w, "sort=importance&order=asc&limit=2&offset=1");
    expect(ids(page)).toEqual([stored[1], stored[2]]);
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 1 });

    const max = await list(w, "limit=100");
    expect(max.memories).toHaveLength(5);
    expect(max.limit).toBe(100);
  });

  it("clamps a limit above 100 to 100 and reports the limit as applied", async () => {
    const w = newWallet();
    await w.storeMany(Array.from({ length: 100 }, (_, i) => ({ content: uniqueText(`many${i}`) })));
    await w.store(uniqueText("one more"));
    // The public CLI asks for 1000 (tags, export, move, purge, snapshot).
    for (const limit of ["101", "1000", "99999999999999999999999"]) {
      const page = await list(w, `limit=${limit}`);
      expect(page.memories, limit).toHaveLength(100);
      expect(page, limit).toMatchObject({ total: 101, limit: 100, offset: 0 });
    }
    const rest = await list(w, "limit=1000&offset=100");
    expect(rest.memories).toHaveLength(1);
    expect(rest.limit).toBe(100);
    // Another wallet's memories never fill the page.
    const other = await list(newWallet(), "limit=1000");
    expect(other).toEqual({ memories: [], total: 0, limit: 100, offset: 0 });
  });

  it("rejects limit below 1 and non-numeric paging with 422", async () => {
    const w = newWallet();
    for (const q of ["limit=0", "limit=abc", "limit=1.5", "limit=-1", "limit=", "offset=-1"]) {
      const res = await w.get(`/v1/memories?${q}`);
      expect(res.status, q).toBe(422);
      expectError(res, 422, "VALIDATION_ERROR");
    }
  });

  it("lists newest first by default, each item a full memory object", async () => {
    const w = newWallet();
    const first = await w.store(uniqueText("first"), {
      importance: 0.7,
      namespace: "work",
      memory_type: "decision",
      session_id: "sess-1",
      agent_id: "agent-1",
      metadata: { source: "unit", tags: ["alpha"] },
    });
    await sleep(15);
    const second = await w.store(uniqueText("second"));
    const page = await list(w);
    expect(ids(page)).toEqual([second, first]);
    const m = page.memories[1];
    expect(m).toMatchObject({
      id: first,
      namespace: "work",
      metadata: { source: "unit", tags: ["alpha"] },
      importance: 0.7,
      memory_type: "decision",
      session_id: "sess-1",
      agent_id: "agent-1",
      pinned: false,
      expires_at: null,
      access_count: 0,
    });
    expect(m.user_id).toMatch(UUID);
    for (const key of ["created_at", "updated_at", "accessed_at"]) {
      expect(Number.isNaN(Date.parse(m[key])), key).toBe(false);
    }
    expect(m).not.toHaveProperty("deleted_at");
    expect(m).not.toHaveProperty("embedding");
    // Both memories belong to the same user.
    expect(page.memories[0].user_id).toBe(m.user_id);
  });
});
