/**
 * GET /v1/suggested: memories worth a look in four categories (stale, decaying, hot, fresh,
 * checked in that order), each with a review_score and every documented field.
 */
import { describe, expect, it } from "vitest";
import { CURRENT_FACT } from "../../fixtures";
import { type Json, newWallet, sorted } from "../../helpers";
import { backdate, byId, suggested } from "./fixtures";

describe("GET /v1/suggested: shape and fresh", () => {
  it("a memory stored now and never accessed is fresh, with every documented field", async () => {
    const w = newWallet();
    // Each of these comes back as it was stored.
    const content = "Fresh idea: a rooftop garden for the office";
    const fields = {
      metadata: { source: "brainstorm", tags: ["garden"] },
      importance: 0.6,
      memory_type: "project",
      namespace: "ideas",
      session_id: "s-1",
      agent_id: "a-1",
    };
    const id = await w.storeNew(content, fields);
    const stored = await w.getMemory(id);
    const body = await suggested(w);
    expect(body.categories).toEqual({ stale: 0, fresh: 1, hot: 0, decaying: 0 });
    expect(body.total).toBe(1);
    expect(body.suggested).toHaveLength(1);
    const item = body.suggested[0];
    expect(body.suggestions).toEqual([item]);
    expect(item).toEqual({
      id,
      content,
      ...fields,
      created_at: stored.created_at,
      accessed_at: stored.accessed_at,
      access_count: 0,
      relation_count: 0,
      created_by: w.address.toLowerCase(),
      ...CURRENT_FACT,
      category: "fresh",
      review_score: expect.any(Number),
    });
    // fresh: importance · exp(−age_days / 7), age a few seconds
    expect(item.review_score).toBeCloseTo(0.6, 4);
    expect(item.review_score).toBeLessThanOrEqual(0.6);
  });

  it("relation_count counts relations whose other end is live", async () => {
    const w = newWallet();
    const a = await w.storeNew("Hub memory about the river cleanup");
    const b = await w.storeNew("Volunteers for the river cleanup signed up");
    const c = await w.storeNew("Trash bags were ordered for the cleanup day");
    const d = await w.storeNew("Draft flyer for the cleanup, to be discarded");
    for (const [s, t] of [
      [a, b],
      [c, a],
      [a, d],
    ] as const) {
      const res = await w.post(`/v1/memories/${s}/relations`, {
        target_id: t,
        relation_type: "related_to",
      });
      expect(res.status).toBe(201);
    }
    expect((await w.del(`/v1/memories/${d}`)).status).toBe(200);
    const body = await suggested(w);
    const items = byId(body);
    expect(items.size).toBe(3);
    expect(items.get(a).relation_count).toBe(2);
    expect(items.get(b).relation_count).toBe(1);
    expect(items.get(c).relation_count).toBe(1);
    expect(items.has(d)).toBe(false);
    expect(body.categories).toEqual({ stale: 0, fresh: 3, hot: 0, decaying: 0 });
  });

  it("an empty wallet has no suggestions", async () => {
    const w = newWallet();
    expect(await suggested(w)).toEqual({
      suggested: [],
      suggestions: [],
      categories: { stale: 0, fresh: 0, hot: 0, decaying: 0 },
      total: 0,
    });
  });
});

describe("GET /v1/suggested: hot", () => {
  it("a memory recalled 5 times is hot; once recalled it is no longer fresh", async () => {
    const w = newWallet();
    const hot = await w.storeNew("Espresso machine descaling procedure", { importance: 0.4 });
    const once = await w.storeNew("Tram timetable for the harbour line", { importance: 0.7 });
    const fresh = await w.storeNew("Birthday card for Oma is in the drawer", { importance: 0.3 });
    for (let i = 0; i < 4; i++) {
      const res = await w.post("/v1/recall", { query: "espresso machine descaling", limit: 1 });
      expect(res.body.memories[0].id).toBe(hot);
      expect((await w.memoryAfterAccesses(hot, i + 1)).access_count).toBe(i + 1);
    }
    const four = await suggested(w);
    expect(byId(four).has(hot)).toBe(false);
    expect(four.categories).toEqual({ stale: 0, fresh: 2, hot: 0, decaying: 0 });

    const fifth = await w.post("/v1/recall", { query: "espresso machine descaling", limit: 1 });
    expect(fifth.body.memories[0].id).toBe(hot);
    expect((await w.memoryAfterAccesses(hot, 5)).access_count).toBe(5);
    const recalled = await w.post("/v1/recall", { query: "tram timetable harbour", limit: 1 });
    expect(recalled.body.memories[0].id).toBe(once);
    expect((await w.memoryAfterAccesses(once, 1)).access_count).toBe(1);

    const body = await suggested(w);
    expect(body.categories).toEqual({ stale: 0, fresh: 1, hot: 1, decaying: 0 });
    expect(body.total).toBe(2);
    const items = byId(body);
    expect(items.get(hot)).toMatchObject({ category: "hot", access_count: 5, review_score: 0.25 });
    expect(items.get(fresh)).toMatchObject({ category: "fresh", access_count: 0 });
    // Recalled once: neither fresh (it was accessed) nor hot.
    expect(items.has(once)).toBe(false);

    const onlyHot = await suggested(w, "category=hot");
    expect(onlyHot.suggested.map((s: Json) => s.id)).toEqual([hot]);
    expect(onlyHot.total).toBe(1);
    expect(onlyHot.categories).toEqual({ stale: 0, fresh: 1, hot: 1, decaying: 0 });
  });
});

describe("GET /v1/suggested: stale and decaying (backdated)", () => {
  it("classifies by the documented rules, in order, with the documented review scores", async () => {
    const w = newWallet();
    const m = {
      stale: await w.storeNew("Stale: the disaster recovery runbook", { importance: 0.8 }),
      decaying: await w.storeNew("Decaying: the printer jams on thick paper", {
        memory_type: "observation",
        importance: 0.5,
      }),
      pinnedObservation: await w.storeNew("Pinned observation: the lift is slow on Mondays", {
        memory_type: "observation",
        pinned: true,
      }),
      relatedObservation: await w.storeNew("Related observation: the canteen closes early", {
        memory_type: "observation",
      }),
      tooDecayed: await w.storeNew("Long gone observation: a fox in the car park", {
        memory_type: "observation",
      }),
      oldUnimportant: await w.storeNew("Old general note: the blinds are beige", {
        importance: 0.5,
      }),
      oldNeverAccessed: await w.storeNew("Eight days old note: the plants were repotted"),
      staleAndHot: await w.storeNew("Stale beats hot: the budget spreadsheet link", {
        importance: 0.9,
      }),
      decayingAndHot: await w.storeNew("Decaying beats hot: the kettle switch is loose", {
        memory_type: "observation",
        importance: 0.6,
      }),
      veryHot: await w.storeNew("Very hot: the wifi password for guests", { importance: 0.2 }),
      fresh: await w.storeNew("Fresh: the new intern starts today", { importance: 0.7 }),
      partner1: await w.storeNew("Partner one: canteen menu for the week"),
      partner2: await w.storeNew("Partner two: canteen opening hours sign"),
    };
    for (const partner of [m.partner1, m.partner2]) {
      const res = await w.post(`/v1/memories/${m.relatedObservation}/relations`, {
        target_id: partner,
        relation_type: "related_to",
      });
      expect(res.status).toBe(201);
    }
    await backdate(w, {
      [m.stale]: { createdDaysAgo: 50, accessedDaysAgo: 40 },
      [m.decaying]: { createdDaysAgo: 25, accessedDaysAgo: 20 },
      [m.pinnedObservation]: { createdDaysAgo: 25, accessedDaysAgo: 20 },
      [m.relatedObservation]: { createdDaysAgo: 25, accessedDaysAgo: 20 },
      [m.tooDecayed]: { createdDaysAgo: 45, accessedDaysAgo: 40 },
      [m.oldUnimportant]: { createdDaysAgo: 45, accessedDaysAgo: 40 },
      [m.oldNeverAccessed]: { createdDaysAgo: 8, accessedDaysAgo: 8 },
      [m.staleAndHot]: { createdDaysAgo: 60, accessedDaysAgo: 35, accessCount: 8 },
      [m.decayingAndHot]: { createdDaysAgo: 30, accessedDaysAgo: 18, accessCount: 6 },
      [m.veryHot]: { createdDaysAgo: 3, accessedDaysAgo: 1, accessCount: 25 },
      // partners: old enough not to be fresh, accessed once, so in no category
      [m.partner1]: { createdDaysAgo: 10, accessedDaysAgo: 1, accessCount: 1 },
      [m.partner2]: { createdDaysAgo: 10, accessedDaysAgo: 1, accessCount: 1 },
    });

    const body = await suggested(w, "limit=50");
    expect(body.categories).toEqual({ stale: 2, fresh: 1, hot: 1, decaying: 2 });
    expect(body.total).toBe(6);
    const items = byId(body);
    expect(sorted([...items.keys()])).toEqual(
      sorted([m.stale, m.decaying, m.staleAndHot, m.decayingAndHot, m.veryHot, m.fresh]),
    );

    const decay = (halfLife: number, idle: number) => 0.5 ** (idle / halfLife);
    // stale: importance · (1 − exp(−idle_days / 30))
    expect(items.get(m.stale).category).toBe("stale");
    expect(items.get(m.stale).review_score).toBeCloseTo(0.8 * (1 - Math.exp(-40 / 30)), 4);
    expect(items.get(m.staleAndHot).category).toBe("stale");
    expect(items.get(m.staleAndHot).access_count).toBe(8);
    expect(items.get(m.staleAndHot).review_score).toBeCloseTo(0.9 * (1 - Math.exp(-35 / 30)), 4);
    // decaying: importance · (1 − type_decay) · 2, observation half-life 14 days
    expect(decay(14, 20)).toBeCloseTo(0.3715, 3);
    expect(items.get(m.decaying).category).toBe("decaying");
    expect(items.get(m.decaying).review_score).toBeCloseTo(0.5 * (1 - decay(14, 20)) * 2, 4);
    expect(items.get(m.decayingAndHot).category).toBe("decaying");
    expect(items.get(m.decayingAndHot).review_score).toBeCloseTo(0.6 * (1 - decay(14, 18)) * 2, 4);
    // hot: min(1, access_count / 20)
    expect(items.get(m.veryHot)).toMatchObject({
      category: "hot",
      access_count: 25,
      review_score: 1,
    });
    // fresh: importance · exp(−age_days / 7)
    expect(items.get(m.fresh).category).toBe("fresh");
    expect(items.get(m.fresh).review_score).toBeCloseTo(0.7, 4);

    // Timestamps are reported as stored.
    const staleItem = items.get(m.stale);
    const idleDays = (Date.now() - Date.parse(staleItem.accessed_at)) / 86_400_000;
    expect(idleDays).toBeGreaterThan(39.99);
    expect(idleDays).toBeLessThan(40.01);

    // Highest review score first: the hot one (1) leads.
    expect(body.suggested[0].id).toBe(m.veryHot);

    const stale = await suggested(w, "category=stale");
    expect(stale.total).toBe(2);
    // 0.9 · (1 − e^(−35/30)) ≈ 0.620 ranks above 0.8 · (1 − e^(−40/30)) ≈ 0.589
    expect(stale.suggested.map((s: Json) => s.id)).toEqual([m.staleAndHot, m.stale]);
    const decaying = await suggested(w, "category=decaying");
    expect(decaying.total).toBe(2);
    expect(sorted(decaying.suggested.map((s: Json) => s.id))).toEqual(
      sorted([m.decaying, m.decayingAndHot]),
    );
    for (const s of decaying.suggested) expect(s.category).toBe("decaying");
    const fresh = await suggested(w, "category=fresh");
    expect(fresh.suggested.map((s: Json) => s.id)).toEqual([m.fresh]);
    expect(fresh.total).toBe(1);
    expect(fresh.categories).toEqual(body.categories);
    const limited = await suggested(w, "category=stale&limit=1");
    expect(limited.suggested.map((s: Json) => s.id)).toEqual([m.staleAndHot]);
    expect(limited.total).toBe(2);
  });
});
