/**
 * POST /v1/recall in a wallet of two or three memories, with the production model: when the
 * memories match the query equally, importance and recency decide (spec, rules 2-4), and a
 * near-tie in cosine is not stretched into 1 against 0 (scoring.ts, MIN_SPREAD). A clearly
 * better match still wins over a poor one of high importance.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bgeEndpoint, bgeWallet } from "../../bge-worker";
import { userIdOf, withDb } from "../../db";
import type { Json, Wallet } from "../../helpers";
import { recall } from "./fixtures";

const MEETINGS = "The Zephyr project holds its planning meetings on Tuesday mornings.";
const DOCUMENTS = "The Zephyr project keeps its design documents in a shared drive.";
const BUGS = "The Zephyr project tracks its open bugs in a spreadsheet.";

beforeAll(() => {
  bgeEndpoint();
});

async function ranked(w: Wallet, query: string): Promise<Json[]> {
  return (await recall(w, { query, limit: 10 })).memories as Json[];
}

/** Makes memories `days` older: created and last accessed that long ago. */
async function age(w: Wallet, ids: string[], days: number): Promise<void> {
  await withDb(async (db) => {
    const userId = await userIdOf(db, w);
    await db.execute(sql`
      UPDATE memories SET created_at = created_at - make_interval(days => ${days}),
        occurred_at = occurred_at - make_interval(days => ${days}),
        accessed_at = accessed_at - make_interval(days => ${days})
      WHERE user_id = ${userId} AND id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`);
  });
}

describe("POST /v1/recall: a small wallet ranks equal matches by importance and age", () => {
  it("ranks the important one of two equal matches first, in either order of storing", async () => {
    for (const order of [0, 1]) {
      const w = bgeWallet();
      const items = [
        { content: MEETINGS, importance: 1 },
        { content: DOCUMENTS, importance: 0.1 },
      ];
      if (order === 1) items.reverse();
      await w.storeMany(items);
      const got = await ranked(w, "Zephyr project");
      expect(got.map((m) => m.content)).toEqual([MEETINGS, DOCUMENTS]);
      // The two cosines are a near-tie, and their relevance stays one.
      const [first, second] = got as [Json, Json];
      expect(Math.abs(first._signals.vector - second._signals.vector)).toBeLessThan(0.05);
      expect(second.similarity / first.similarity).toBeGreaterThan(0.3);
    }
  });

  it("orders three equal matches by importance", async () => {
    const w = bgeWallet();
    await w.storeMany([
      { content: DOCUMENTS, importance: 0.1 },
      { content: BUGS, importance: 0.5 },
      { content: MEETINGS, importance: 1 },
    ]);
    const got = await ranked(w, "Zephyr project");
    expect(got.map((m) => m.importance)).toEqual([1, 0.5, 0.1]);
  });

  it("ranks the recent one of two equal matches first, even when the old one is closer", async () => {
    const w = bgeWallet();
    // DOCUMENTS has the higher cosine for the query (0.72 against 0.70): it is made old.
    const [meetings, documents] = (await w.storeMany([
      { content: MEETINGS },
      { content: DOCUMENTS },
    ])) as [string, string];
    await age(w, [documents], 30);
    const got = await ranked(w, "Zephyr project");
    expect(got.map((m) => m.id)).toEqual([meetings, documents]);
    expect(got[0]?._signals.recency).toBeGreaterThan(got[1]?._signals.recency);
  });

  it("ranks a clearly better match of low importance above a poor match of high importance", async () => {
    const w = bgeWallet();
    const [meetings, menu] = (await w.storeMany([
      { content: MEETINGS, importance: 0.1 },
      { content: "The office cafeteria changes its lunch menu every week.", importance: 1 },
    ])) as [string, string];
    const got = await ranked(w, "When does the Zephyr team plan its work?");
    expect(got.map((m) => m.id)).toEqual([meetings, menu]);
  });

  it("in a wallet of five, where unrelated memories set the median, importance decides too", async () => {
    const w = bgeWallet();
    await w.storeMany([
      { content: DOCUMENTS, importance: 0.1 },
      { content: MEETINGS, importance: 1 },
      { content: "My sister plays the violin in an orchestra." },
      { content: "The car needs new tires before winter." },
      { content: "Dinner reservation at 8 pm on Friday." },
    ]);
    const got = await ranked(w, "Zephyr project");
    expect(got.slice(0, 2).map((m) => m.content)).toEqual([MEETINGS, DOCUMENTS]);
  });
});
