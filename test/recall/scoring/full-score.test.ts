/**
 * Unit tests of the recall score (worker/recall/scoring.ts) with a fixed `now`: the full score
 * (rule 2), context importance (rule 4) and the access boost (rule 5).
 */
import { describe, expect, it } from "vitest";
import {
  FEW,
  MIN_SPREAD,
  NEAR_TIE,
  relevantVector,
  SMALL_SCOPE,
  scoreMemory,
  vectorRange,
} from "../../../worker/recall/scoring";
import { daysAgo, input, NOW } from "./fixtures";

describe("scoring: full score (rule 2) and context importance (rule 4)", () => {
  it("score = hybrid · context_importance · access_boost · type_decay", () => {
    const m = input({
      vector: 0.6,
      keyword: 0.5,
      importance: 0.4,
      memoryType: "decision",
      pinned: false,
      accessCount: 3,
      relationCount: 2,
      createdAt: daysAgo(12),
      accessedAt: daysAgo(9),
    });
    const hybrid = 0.55 * 0.6 + 0.25 * 0.5 + 0.2 * Math.exp(-12 / 30);
    const effective = 0.5 + 0.5 * 0.4;
    // relevance = 0.45 · 0.6 + 0.55 · 0.5 = 0.545, to the fifth.
    const context = effective * 0.545 ** 5;
    const boost = 1.3;
    const decay = 0.5 ** (9 / (90 * (1 + Math.log(3))));
    const { score, signals } = scoreMemory(m, NOW);
    expect(signals.effective_importance).toBeCloseTo(0.7, 12);
    expect(signals.context_importance).toBeCloseTo(context, 12);
    expect(signals.type_decay).toBeCloseTo(decay, 12);
    expect(score).toBeCloseTo(hybrid * context * boost * decay, 10);
  });

  it("effective_importance = 0.5 + 0.5 · importance", () => {
    for (const importance of [0, 0.2, 0.5, 0.9, 1]) {
      const { signals } = scoreMemory(input({ importance }), NOW);
      expect(signals.base_importance).toBeCloseTo(importance, 12);
      expect(signals.effective_importance).toBeCloseTo(0.5 + 0.5 * importance, 12);
    }
  });

  it("context_importance = effective · (0.45 · vector + 0.55 · keyword)⁵ for the lexical embedder", () => {
    const cases = [
      { importance: 0.4, vector: 0.3, keyword: 0.6 },
      { importance: 0.4, vector: 0.6, keyword: 0.3 },
      { importance: 0, vector: 0, keyword: 0 },
      { importance: 0, vector: 1, keyword: 0 },
      { importance: 0.8, vector: 0.25, keyword: 0.1 },
      { importance: 1, vector: 1, keyword: 1 },
    ];
    for (const c of cases) {
      const effective = 0.5 + 0.5 * c.importance;
      const expected = effective * (0.45 * c.vector + 0.55 * c.keyword) ** 5;
      const { signals } = scoreMemory(input(c), NOW);
      expect(signals.context_importance).toBeCloseTo(expected, 12);
    }
    // Worked example: importance 0.4 → effective 0.7; relevance 0.45 · 0.2 + 0.55 · 0.6 = 0.42
    // → 0.7 · 0.42⁵ = 0.7 · 0.0130691232 = 0.00914838624.
    expect(
      scoreMemory(input({ importance: 0.4, vector: 0.2, keyword: 0.6 }), NOW).signals
        .context_importance,
    ).toBeCloseTo(0.00914838624, 12);
  });

  it("a semantic model's cosine counts by its place between the query's median and best", () => {
    const scale = { median: 0.5, best: 0.7, n: 100 };
    const context = (vector: number, keyword: number, sc = scale) =>
      scoreMemory(input({ importance: 1, vector, keyword }), NOW, sc).signals.context_importance;
    // 0.6 is halfway from the median to the best: vector' 0.5, relevance 0.45 · 0.5 + 0.55 · 0.2.
    expect(context(0.6, 0.2)).toBeCloseTo(0.335 ** 5, 12);
    expect(context(0.7, 0)).toBeCloseTo(0.45 ** 5, 12);
    expect(context(0.45, 0.4)).toBeCloseTo(0.22 ** 5, 12);
    // The reported vector signal stays the cosine.
    expect(scoreMemory(input({ vector: 0.6 }), NOW, scale).signals.vector).toBe(0.6);
    // One memory scored (median = best): it is the best match.
    expect(context(0.6, 0, { median: 0.6, best: 0.6, n: 100 })).toBeCloseTo(0.45 ** 5, 12);
    expect(relevantVector(0, scale)).toBe(0);
    expect(relevantVector(0.9, scale)).toBe(1);
    expect(relevantVector(0.3, null)).toBe(0.3);
  });

  it("a handful of cosines: the range is [best − MIN_SPREAD, best − NEAR_TIE], fading into the median's", () => {
    // Two memories: the median is their mean, and 0.70 against 0.72 is no longer 0 against 1.
    const two = { median: 0.71, best: 0.72, n: 2 };
    expect(vectorRange(two).low).toBeCloseTo(0.72 - MIN_SPREAD, 12);
    expect(vectorRange(two).high).toBeCloseTo(0.72 - NEAR_TIE, 12);
    expect(relevantVector(0.72, two)).toBe(1);
    expect(relevantVector(0.7, two)).toBe(1); // within NEAR_TIE of the best
    expect(relevantVector(0.52, two)).toBe(0); // MIN_SPREAD below it
    expect(relevantVector(0.6, two)).toBeCloseTo((0.6 - 0.52) / (0.67 - 0.52), 12);
    // Three: still the small range. Halfway from FEW to SMALL_SCOPE, halfway between the two.
    expect(vectorRange({ median: 0.7, best: 0.75, n: FEW })).toEqual(
      vectorRange({ median: 0.75, best: 0.75, n: 1 }),
    );
    const mid = { median: 0.7, best: 0.75, n: (FEW + SMALL_SCOPE) / 2 };
    expect(vectorRange(mid).low).toBeCloseTo(0.7 + 0.5 * (0.55 - 0.7), 12);
    expect(vectorRange(mid).high).toBeCloseTo(0.75 - 0.5 * NEAR_TIE, 12);
    // From SMALL_SCOPE on, the median's range alone, however narrow.
    for (const n of [SMALL_SCOPE, 10, 1000]) {
      expect(vectorRange({ median: 0.51, best: 0.6, n })).toEqual({ low: 0.51, high: 0.6 });
    }
    // Near-tied and fully matching: relevance 1, the importance counts in full (sql-twin.test.ts
    // checks the SQL score against this one).
    const small = scoreMemory(input({ importance: 1, vector: 0.7, keyword: 1 }), NOW, two);
    expect(small.signals.context_importance).toBeCloseTo(1, 12);
  });

  it("an importance-0 memory is damped to half, never erased", () => {
    const relevant = { vector: 0.8, keyword: 0.6 };
    const zero = scoreMemory(input({ importance: 0, ...relevant }), NOW);
    const one = scoreMemory(input({ importance: 1, ...relevant }), NOW);
    expect(zero.score).toBeGreaterThan(0);
    expect(zero.score / one.score).toBeCloseTo(0.5, 12);
  });

  it("higher importance never lowers the score; relevance counts more than access", () => {
    let previous = -1;
    for (const importance of [0, 0.25, 0.5, 0.75, 1]) {
      const { score } = scoreMemory(input({ importance, vector: 0.5, keyword: 0.2 }), NOW);
      expect(score).toBeGreaterThan(previous);
      previous = score;
    }
    // A good match is not overtaken by a weak one at the maximum access boost (×2).
    const good = scoreMemory(input({ vector: 0.7, keyword: 0.8, pinned: false }), NOW);
    const popular = scoreMemory(
      input({ vector: 0.35, keyword: 0.25, pinned: false, accessCount: 50 }),
      NOW,
    );
    expect(good.score).toBeGreaterThan(popular.score);
  });
});

describe("scoring: access boost (rule 5)", () => {
  const scoreWith = (accessCount: number) =>
    scoreMemory(input({ vector: 0.5, keyword: 0.5, accessCount }), NOW).score;

  it("is min(1 + 0.1 · access_count, 2)", () => {
    const base = scoreWith(0);
    expect(base).toBeGreaterThan(0);
    expect(scoreWith(1) / base).toBeCloseTo(1.1, 12);
    expect(scoreWith(5) / base).toBeCloseTo(1.5, 12);
    expect(scoreWith(9) / base).toBeCloseTo(1.9, 12);
    expect(scoreWith(10) / base).toBeCloseTo(2, 12);
  });

  it("caps at 2: access counts 10 and 50 give the same factor", () => {
    expect(scoreWith(50)).toBe(scoreWith(10));
    expect(scoreWith(11)).toBe(scoreWith(10));
    expect(scoreWith(1000) / scoreWith(0)).toBeCloseTo(2, 12);
  });
});
