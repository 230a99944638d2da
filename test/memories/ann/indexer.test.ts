/**
 * The indexer of the approximate index (worker/memories/ann.ts): it takes only wallets above
 * GRAPH_MIN, once BACKLOG_MIN rows wait, after the response, in statements as short as the
 * database asks for; two runs at once index each row once. Every store goes through the API.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as ann from "../../../worker/memories/ann";
import { userIdOf, withDb } from "../../db";
import { newWallet, sleep } from "../../helpers";
import { bulkText, counts, largeWallet, recallTop } from "./fixtures";

describe("the approximate index and its backlog", () => {
  it("indexes in shorter statements where the database asks for them", async () => {
    expect([undefined, null, "", "ten", "0", "10", "100", "500"].map(ann.indexChunk)).toEqual([
      100, 100, 100, 100, 100, 10, 100, 100,
    ]);
    // The embedded database asks for 10 (every other client waits for each statement there);
    // a server leaves it to the code. The other tests index whole wallets either way.
    const row = await withDb((db) =>
      db.execute<{ chunk: string | null; wasm: boolean }>(
        sql`SELECT current_setting('memory_service.index_chunk', true) AS chunk,
          version() LIKE '%PGlite%' AS wasm`,
      ),
    );
    expect(row.rows[0]?.chunk).toBe(row.rows[0]?.wasm ? "10" : null);
  });

  it("leaves small wallets to exact scans", async () => {
    const w = newWallet();
    await w.storeNew("a small wallet keeps its rows out of the HNSW index");
    const userId = await withDb((db) => userIdOf(db, w));
    expect(await withDb((db) => ann.indexBacklog(db, userId, ann.GRAPH_MIN))).toBe(0);
    expect(await withDb((db) => counts(db, userId))).toEqual({ indexed: 0, backlog: 1 });
  });

  it("keeps wallets of up to the Worker's GRAPH_MIN memories out of the graph", async () => {
    // Above EXACT_SCAN_MAX, with a full backlog waiting, under a Worker whose GRAPH_MIN is
    // larger: its store leaves the wallet to exact scans, which find a repeat and recall it.
    const graphMin = ann.EXACT_SCAN_MAX + 2 * ann.BACKLOG_MIN;
    const { w, userId } = await largeWallet(ann.EXACT_SCAN_MAX + ann.BACKLOG_MIN, graphMin);
    const again = await w.post("/v1/store/batch", {
      memories: [{ content: bulkText(42) }, { content: "one more note, new to the wallet" }],
    });
    expect(again.body).toMatchObject({ deduplicated_count: 1 });
    expect(await recallTop(w, bulkText(2024))).toContain(bulkText(2024));
    expect(await withDb((db) => ann.indexBacklog(db, userId, graphMin))).toBe(0);
    expect(await withDb((db) => counts(db, userId))).toEqual({
      indexed: 0,
      backlog: ann.EXACT_SCAN_MAX + ann.BACKLOG_MIN + 2,
    });
    // The default graph starts where exact recall ends.
    expect(ann.GRAPH_MIN).toBe(ann.EXACT_SCAN_MAX);
    expect(await withDb((db) => ann.indexBacklog(db, userId, ann.GRAPH_MIN))).toBe(
      ann.EXACT_SCAN_MAX + ann.BACKLOG_MIN + 2,
    );
  });

  it("indexes a large wallet's new rows after the response once enough wait, and two runs at once once", async () => {
    const { w, userId } = await largeWallet(ann.EXACT_SCAN_MAX + 50, ann.GRAPH_MIN);
    const [a, b] = await withDb((db) =>
      Promise.all([
        ann.indexBacklog(db, userId, ann.GRAPH_MIN),
        ann.indexBacklog(db, userId, ann.GRAPH_MIN),
      ]),
    );
    expect((a ?? 0) + (b ?? 0)).toBe(ann.EXACT_SCAN_MAX + 51);

    // One new row waits in the backlog (exact scans cover it); BACKLOG_MIN of them are
    // indexed after the response that completes them.
    const one = await w.storeNew("stored after the wallet was indexed: it waits for company");
    const state = (ids: string[]) =>
      withDb((db) =>
        db.execute<{ n: number }>(
          sql`SELECT count(*) FILTER (WHERE ann)::int AS n FROM memories WHERE id = ANY(${sql.param(ids)}::uuid[])`,
        ),
      ).then((r) => r.rows[0]?.n ?? 0);
    expect(await state([one])).toBe(0);
    const ids = [one];
    for (let i = 0; ids.length < ann.BACKLOG_MIN; i++) {
      const batch = Array.from({ length: Math.min(100, ann.BACKLOG_MIN - ids.length) }, (_, j) => ({
        content: bulkText(100_000 + i * 100 + j),
      }));
      const res = await w.post("/v1/store/batch", { memories: batch });
      expect(res.status).toBe(201);
      ids.push(...res.body.ids);
    }
    let indexed = 0;
    for (let i = 0; i < 100 && indexed < ids.length; i++) {
      indexed = await state(ids);
      if (indexed < ids.length) await sleep(100);
    }
    expect(indexed).toBe(ids.length);
  });
});
