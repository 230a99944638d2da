/** GET /v1/suggested: limit and category, validation, scope filters and wallet isolation. */
import { describe, expect, it } from "vitest";
import { expectError, type Json, newWallet, request, uniqueText } from "../../helpers";
import { suggested } from "./fixtures";

describe("GET /v1/suggested: limit and validation", () => {
  it("limit defaults to 10, goes up to 50, and the highest review scores come first", async () => {
    const w = newWallet();
    // Twelve distinct memories, each more important than the one before.
    const ids = await w.storeMany(
      Array.from({ length: 12 }, (_, i) => ({
        content: uniqueText(`trivia card ${i}`),
        importance: Math.round((0.05 + i * 0.08) * 100) / 100,
      })),
    );

    const page = await suggested(w);
    expect(page.suggested).toHaveLength(10);
    expect(page.total).toBe(12);
    expect(page.categories).toEqual({ stale: 0, fresh: 12, hot: 0, decaying: 0 });
    // Same age, so review_score follows importance: most important first.
    expect(page.suggested.map((s: Json) => s.id)).toEqual([...ids].reverse().slice(0, 10));

    expect((await suggested(w, "limit=3")).suggested.map((s: Json) => s.id)).toEqual(
      [...ids].reverse().slice(0, 3),
    );
    expect((await suggested(w, "limit=1")).suggested).toHaveLength(1);
    expect((await suggested(w, "limit=50")).suggested).toHaveLength(12);
  });

  it("rejects limit 0, 51, non-numbers and unknown categories with 422", async () => {
    const w = newWallet();
    for (const q of [
      "limit=0",
      "limit=51",
      "limit=-1",
      "limit=abc",
      "limit=2.5",
      "category=bogus",
      "category=STALE",
      `namespace=${"n".repeat(256)}`,
    ]) {
      expectError(await w.get(`/v1/suggested?${q}`), 422, "VALIDATION_ERROR");
    }
    expectError(await request("GET", "/v1/suggested"), 401, "UNAUTHORIZED");
  });
});

describe("GET /v1/suggested: scope and isolation", () => {
  it("filters by namespace, session_id and agent_id (counts included)", async () => {
    const w = newWallet();
    const work = await w.storeNew("Work: the sprint retro is on Thursday", { namespace: "work" });
    const session = await w.storeNew("Session: user wants a refund", { session_id: "sess-9" });
    const agent = await w.storeNew("Agent: scraped the competitor prices", { agent_id: "bot-3" });
    await w.storeNew("Unscoped: the fridge is cleaned on Fridays");
    const cases: Array<[string, string]> = [
      ["namespace=work", work],
      ["session_id=sess-9", session],
      ["agent_id=bot-3", agent],
    ];
    for (const [q, id] of cases) {
      const body = await suggested(w, q);
      expect(
        body.suggested.map((s: Json) => s.id),
        q,
      ).toEqual([id]);
      expect(body.categories).toEqual({ stale: 0, fresh: 1, hot: 0, decaying: 0 });
      expect(body.total).toBe(1);
    }
    const combined = await suggested(w, "namespace=work&session_id=sess-9");
    expect(combined.suggested).toEqual([]);
    expect(combined.total).toBe(0);
    expect((await suggested(w)).total).toBe(4);
    expect((await suggested(w, "namespace=default")).total).toBe(3);
  });

  it("never shows another wallet's or deleted memories", async () => {
    const a = newWallet();
    const b = newWallet();
    const mine = await a.storeNew("Wallet A: the safe deposit box number");
    const gone = await a.storeNew("Wallet A: a note that gets deleted");
    const theirs = await b.storeNew("Wallet B: the gym locker code");
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);
    const forA = await suggested(a);
    expect(forA.suggested.map((s: Json) => s.id)).toEqual([mine]);
    expect(forA.suggestions.map((s: Json) => s.id)).toEqual([mine]);
    expect(forA.categories.fresh).toBe(1);
    expect(forA.total).toBe(1);
    const forB = await suggested(b);
    expect(forB.suggested.map((s: Json) => s.id)).toEqual([theirs]);
    expect(forB.total).toBe(1);
  });
});
