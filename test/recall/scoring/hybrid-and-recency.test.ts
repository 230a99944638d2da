/** Unit tests of the recall score (worker/recall/scoring.ts) with a fixed `now`: the hybrid of the signals (rule 1) and recency (rule 3). */
import { describe, expect, it } from "vitest";
import { hybridScore, RECENCY_DAYS, scoreMemory, WEIGHTS } from "../../../worker/recall/scoring";
import { DAY, daysAgo, FAR_PAST, input, NOW } from "./fixtures";

describe("scoring: hybrid (rule 1)", () => {
  it("uses the weights 0.55 / 0.25 / 0.20 exactly", () => {
    expect(WEIGHTS).toEqual({ vector: 0.55, keyword: 0.25, recency: 0.2 });
    expect(RECENCY_DAYS).toBe(30);
  });

  it("vector alone weighs 0.55, keyword 0.25, recency 0.20", () => {
    expect(hybridScore(1, 0, 0)).toBeCloseTo(0.55, 12);
    expect(hybridScore(0, 1, 0)).toBeCloseTo(0.25, 12);
    expect(hybridScore(0, 0, 1)).toBeCloseTo(0.2, 12);
  });

  it("combines the three signals linearly, and the score carries it", () => {
    const { score, signals } = scoreMemory(
      input({ vector: 0.8, keyword: 0.4, createdAt: daysAgo(3) }),
      NOW,
    );
    const expected = 0.55 * 0.8 + 0.25 * 0.4 + 0.2 * Math.exp(-3 / 30);
    expect(hybridScore(0.8, 0.4, Math.exp(-3 / 30))).toBeCloseTo(expected, 12);
    expect(signals.type_decay).toBe(1);
    expect(score / signals.context_importance).toBeCloseTo(expected, 10);
  });

  it("all-zero relevance scores 0, however recent", () => {
    expect(scoreMemory(input({ createdAt: daysAgo(FAR_PAST) }), NOW).score).toBe(0);
    expect(scoreMemory(input(), NOW).score).toBe(0);
  });
});

describe("scoring: recency (rule 3)", () => {
  it("is exp(-age_days / 30) from created_at", () => {
    for (const age of [0, 1, 7.5, 30, 60, 365]) {
      const { signals } = scoreMemory(input({ createdAt: daysAgo(age) }), NOW);
      expect(signals.recency).toBeCloseTo(Math.exp(-age / 30), 12);
    }
    expect(scoreMemory(input({ createdAt: daysAgo(30) }), NOW).signals.recency).toBeCloseTo(
      1 / Math.E,
      12,
    );
  });

  it("ignores accessed_at", () => {
    const a = scoreMemory(input({ createdAt: daysAgo(45), accessedAt: daysAgo(0) }), NOW);
    const b = scoreMemory(input({ createdAt: daysAgo(45), accessedAt: daysAgo(40) }), NOW);
    expect(a.signals.recency).toBeCloseTo(Math.exp(-1.5), 12);
    expect(b.signals.recency).toBe(a.signals.recency);
  });

  it("a created_at in the future counts as age 0", () => {
    const { signals } = scoreMemory(input({ createdAt: new Date(NOW + 5 * DAY) }), NOW);
    expect(signals.recency).toBe(1);
  });
});
