/**
 * List and count answer their totals from memory_counts (kept by triggers, migration 0008)
 * when nothing but the namespace filters them: every kind of write must keep those counts
 * equal to the rows, writes that overlap too, and folding a wallet's rows must not change a
 * total. Each check compares the API's totals with count(*) of the rows themselves.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userIdOf, withDb } from "../db";
import { newWallet, sleep, uniqueText, type Wallet } from "../helpers";

/** count(*) of the wallet's live rows, by namespace and in all. */
async function rowCounts(w: Wallet): Promise<Record<string, number>> {
  return withDb(async (db) => {
    const id = await userIdOf(db, w);
    const rows = await db.execute<{ namespace: string; n: number }>(sql`
      SELECT namespace, count(*)::int AS n FROM memories
      WHERE user_id = ${id} AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())
      GROUP BY namespace`);
    const counts: Record<string, number> = {};
    for (const r of rows.rows) counts[r.namespace] = Number(r.n);
    return counts;
  });
}

/** The API's totals (list and count, all and per namespace) equal the rows'. */
async function expectTotalsMatchRows(w: Wallet, namespaces: string[]) {
  const rows = await rowCounts(w);
  const all = Object.values(rows).reduce((a, b) => a + b, 0);
  expect((await w.getOk("/v1/memories?limit=1")).total).toBe(all);
  expect(await w.memoryCount()).toBe(all);
  for (const ns of namespaces) {
    expect((await w.getOk(`/v1/memories?limit=1&namespace=${ns}`)).total).toBe(rows[ns] ?? 0);
    expect(await w.memoryCount(`?namespace=${ns}`)).toBe(rows[ns] ?? 0);
  }
  return all;
}

const changeRows = (w: Wallet) =>
  withDb(async (db) => {
    const id = await userIdOf(db, w);
    const r = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM memory_counts WHERE user_id = ${id}`,
    );
    return Number(r.rows[0]?.n ?? 0);
  });

describe("list and count totals from the kept counts", () => {
  it("follow stores, merges, deletes, bulk deletes and namespace moves", async () => {
    const w = newWallet();
    const a = await w.storeNew(uniqueText("alpha"), { namespace: "a" });
    const b = await w.storeNew(uniqueText("beta"), { namespace: "b" });
    const batch = await w.post("/v1/store/batch", {
      memories: [
        { content: uniqueText("gamma"), namespace: "a" },
        { content: uniqueText("delta"), namespace: "b" },
        { content: uniqueText("epsilon") },
      ],
    });
    expect(batch.status).toBe(201);
    expect(await expectTotalsMatchRows(w, ["a", "b", "default"])).toBe(5);

    // A merge (the same text again) adds nothing.
    const again = await w.post("/v1/store", {
      content: (await w.getMemory(a)).content,
      namespace: "a",
    });
    expect(again.body.deduplicated).toBe(true);
    expect(await expectTotalsMatchRows(w, ["a"])).toBe(5);

    expect((await w.del(`/v1/memories/${a}`)).status).toBe(200);
    // A second delete of the same memory is a 404 and must not count twice.
    expect((await w.del(`/v1/memories/${a}`)).status).toBe(404);
    expect(await expectTotalsMatchRows(w, ["a", "b"])).toBe(4);

    const moved = await w.patch(`/v1/memories/${b}`, { namespace: "c" });
    expect(moved.status).toBe(200);
    expect(await expectTotalsMatchRows(w, ["a", "b", "c"])).toBe(4);

    const bulk = await w.del("/v1/memories", { ids: [...batch.body.ids, a] });
    expect(bulk.body.deleted).toBe(3);
    expect(await expectTotalsMatchRows(w, ["a", "b", "c", "default"])).toBe(1);
  });

  it("leave out memories whose expiry has passed, though no write marked them", async () => {
    const w = newWallet();
    await w.storeNew(uniqueText("lasting"));
    const soon = await w.storeNew(uniqueText("fleeting"), {
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(await expectTotalsMatchRows(w, ["default"])).toBe(2);
    await withDb((db) =>
      db.execute(sql`UPDATE memories SET expires_at = now() - interval '1 second'
        WHERE id = ${soon}`),
    );
    expect(await expectTotalsMatchRows(w, ["default"])).toBe(1);
  });

  it("hold under overlapping stores, batches and deletes in several namespaces", async () => {
    const w = newWallet();
    const first = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        w.post("/v1/store", { content: uniqueText(`first ${i}`), namespace: `n${i % 3}` }),
      ),
    );
    const doomed = first.slice(0, 6).map((r) => r.body.id as string);
    const [batches, deletes, bulk] = await Promise.all([
      Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          w.post("/v1/store/batch", {
            memories: Array.from({ length: 5 }, (_, j) => ({
              content: uniqueText(`batch ${i} ${j}`),
              namespace: `n${(i + j) % 3}`,
            })),
          }),
        ),
      ),
      Promise.all(doomed.map((id) => w.del(`/v1/memories/${id}`))),
      w.del("/v1/memories", { ids: doomed }),
    ]);
    for (const r of batches) expect(r.status).toBe(201);
    // Each memory is deleted once: by its own DELETE or by the bulk one, whichever came first.
    const single = deletes.filter((r) => r.status === 200).length;
    for (const r of deletes) expect([200, 404]).toContain(r.status);
    expect(bulk.status).toBe(200);
    expect(single + bulk.body.deleted).toBe(doomed.length);
    expect(await expectTotalsMatchRows(w, ["n0", "n1", "n2"])).toBe(12 + 40 - 6);
  });

  it("fold a wallet's change rows without changing a total", async () => {
    const w = newWallet();
    // Each single store appends a row of change; deletes append theirs.
    const stored: string[] = [];
    for (let i = 0; i < 40; i++) {
      stored.push(await w.storeNew(uniqueText(`fold ${i}`), { namespace: `f${i % 2}` }));
    }
    for (const id of stored.slice(0, 5)) await w.del(`/v1/memories/${id}`);
    // 45 writes appended 45 rows; a store folds them after its response once there are more
    // than 32 (live-count.ts), so fewer are left.
    await sleep(200);
    expect(await changeRows(w)).toBeLessThanOrEqual(33);
    expect(await expectTotalsMatchRows(w, ["f0", "f1"])).toBe(35);
  });
});
