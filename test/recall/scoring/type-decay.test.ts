/** Unit tests of the recall score (worker/recall/scoring.ts) with a fixed `now`: type decay (rule 6). */
import { describe, expect, it } from "vitest";
import { HALF_LIFE_DAYS, scoreMemory, typeDecay } from "../../../worker/recall/scoring";
import { spec } from "../../spec/facts";
import { DAY, daysAgo, input, NOW } from "./fixtures";

describe("scoring: type decay (rule 6)", () => {
  it("uses the spec's half-lives", () => {
    expect(HALF_LIFE_DAYS).toEqual(spec.halfLifeDays);
  });

  it("halves after one half-life of idleness for every type", () => {
    for (const [type, days] of Object.entries(spec.halfLifeDays)) {
      expect(typeDecay(type, false, 0, days)).toBeCloseTo(0.5, 12);
      expect(typeDecay(type, false, 0, 2 * days)).toBeCloseTo(0.25, 12);
      expect(typeDecay(type, false, 0, 0)).toBe(1);
      const { signals } = scoreMemory(
        input({ memoryType: type, pinned: false, accessedAt: daysAgo(days) }),
        NOW,
      );
      expect(signals.type_decay).toBeCloseTo(0.5, 12);
    }
  });

  it("observation decays faster than general, general faster than correction", () => {
    const at = (type: string) => typeDecay(type, false, 0, 30);
    expect(at("observation")).toBeCloseTo(0.5 ** (30 / 14), 12);
    expect(at("observation")).toBeLessThan(at("project"));
    expect(at("project")).toBeLessThan(at("general"));
    expect(at("general")).toBeLessThan(at("decision"));
    expect(at("decision")).toBeLessThan(at("correction"));
    expect(at("correction")).toBe(at("preference"));
  });

  it("an unknown type decays like general", () => {
    expect(typeDecay("mystery", false, 0, 60)).toBeCloseTo(0.5, 12);
  });

  it("pinned memories do not decay", () => {
    expect(typeDecay("observation", true, 0, 10_000)).toBe(1);
    const relevant = { vector: 1, keyword: 1 };
    const { signals, score } = scoreMemory(
      input({ memoryType: "observation", pinned: true, accessedAt: daysAgo(500), ...relevant }),
      NOW,
    );
    expect(signals.type_decay).toBe(1);
    expect(score).toBeCloseTo(1, 12);
    const unpinned = scoreMemory(
      input({ memoryType: "observation", pinned: false, accessedAt: daysAgo(500), ...relevant }),
      NOW,
    );
    expect(unpinned.signals.type_decay).toBeCloseTo(0.5 ** (500 / 14), 15);
    expect(unpinned.score).toBeLessThan(score);
  });

  it("more relations decay slower (monotonic), by half_life · (1 + ln(1 + relations))", () => {
    let previous = 0;
    for (const relations of [0, 1, 2, 3, 5, 10, 50]) {
      const decay = typeDecay("general", false, relations, 90);
      expect(decay).toBeGreaterThan(previous);
      expect(decay).toBeLessThan(1);
      expect(decay).toBeCloseTo(0.5 ** (90 / (60 * (1 + Math.log(1 + relations)))), 12);
      previous = decay;
    }
    // One relation stretches the half-life to 60 · (1 + ln 2) days.
    expect(typeDecay("general", false, 1, 60 * (1 + Math.LN2))).toBeCloseTo(0.5, 12);
    // Negative counts are treated as none.
    expect(typeDecay("general", false, -3, 60)).toBeCloseTo(0.5, 12);
  });

  it("counts from accessed_at, not created_at", () => {
    const oldButRecentlyUsed = scoreMemory(
      input({ pinned: false, createdAt: daysAgo(600), accessedAt: daysAgo(0) }),
      NOW,
    );
    expect(oldButRecentlyUsed.signals.type_decay).toBe(1);
    expect(oldButRecentlyUsed.signals.recency).toBeCloseTo(Math.exp(-20), 12);

    const newButIdle = scoreMemory(
      input({
        memoryType: "observation",
        pinned: false,
        createdAt: daysAgo(14),
        accessedAt: daysAgo(14),
      }),
      NOW,
    );
    expect(newButIdle.signals.type_decay).toBeCloseTo(0.5, 12);

    const sameCreatedDifferentAccess = (idle: number) =>
      scoreMemory(
        input({
          memoryType: "project",
          pinned: false,
          createdAt: daysAgo(90),
          accessedAt: daysAgo(idle),
        }),
        NOW,
      ).signals.type_decay;
    expect(sameCreatedDifferentAccess(30)).toBeCloseTo(0.5, 12);
    expect(sameCreatedDifferentAccess(60)).toBeCloseTo(0.25, 12);
    expect(sameCreatedDifferentAccess(90)).toBeCloseTo(0.125, 12);
  });

  it("an accessed_at in the future counts as idle 0", () => {
    expect(
      scoreMemory(input({ pinned: false, accessedAt: new Date(NOW + DAY) }), NOW).signals
        .type_decay,
    ).toBe(1);
  });

  it("reports relation_count as given", () => {
    expect(scoreMemory(input({ relationCount: 7 }), NOW).signals.relation_count).toBe(7);
  });
});
