/** Unit tests of the recall score (worker/recall/scoring.ts) with a fixed `now`: every signal stays in its range. */
import { describe, expect, it } from "vitest";
import { HALF_LIFE_DAYS, scoreMemory } from "../../../worker/recall/scoring";
import { daysAgo, input, NOW } from "./fixtures";

describe("scoring: signal ranges", () => {
  it("clamps vector and keyword to 0-1 and importance to 0-1", () => {
    const high = scoreMemory(input({ vector: 1.7, keyword: 3, importance: 4 }), NOW).signals;
    expect(high.vector).toBe(1);
    expect(high.keyword).toBe(1);
    expect(high.base_importance).toBe(1);
    expect(high.effective_importance).toBe(1);
    const low = scoreMemory(input({ vector: -0.4, keyword: -1, importance: -2 }), NOW).signals;
    expect(low.vector).toBe(0);
    expect(low.keyword).toBe(0);
    expect(low.base_importance).toBe(0);
    expect(low.effective_importance).toBe(0.5);
    const nan = scoreMemory(input({ vector: Number.NaN, keyword: Number.POSITIVE_INFINITY }), NOW);
    expect(nan.signals.vector).toBe(0);
    expect(nan.signals.keyword).toBe(0);
    expect(Number.isFinite(nan.score)).toBe(true);
  });

  it("every signal stays within its range over a grid of inputs", () => {
    const types = Object.keys(HALF_LIFE_DAYS);
    let checked = 0;
    for (const vector of [-0.2, 0, 0.33, 1, 1.2]) {
      for (const keyword of [0, 0.5, 1]) {
        for (const importance of [0, 0.3, 1]) {
          for (const [i, type] of types.entries()) {
            for (const accessCount of [0, 4, 30]) {
              for (const age of [0, 10, 400]) {
                const pinned = (i + accessCount) % 2 === 0;
                const { score, signals: s } = scoreMemory(
                  {
                    vector,
                    keyword,
                    importance,
                    memoryType: type,
                    pinned,
                    accessCount,
                    relationCount: i,
                    createdAt: daysAgo(age + 5),
                    accessedAt: daysAgo(age),
                  },
                  NOW,
                );
                for (const v of [s.vector, s.keyword, s.recency, s.base_importance, s.type_decay]) {
                  expect(v).toBeGreaterThanOrEqual(0);
                  expect(v).toBeLessThanOrEqual(1);
                }
                expect(s.effective_importance).toBeGreaterThanOrEqual(0.5);
                expect(s.effective_importance).toBeLessThanOrEqual(1);
                expect(s.context_importance).toBeGreaterThanOrEqual(0);
                expect(s.context_importance).toBeLessThanOrEqual(s.effective_importance);
                if (pinned) expect(s.type_decay).toBe(1);
                expect(score).toBeGreaterThanOrEqual(0);
                expect(score).toBeLessThanOrEqual(2);
                const hybrid = 0.55 * s.vector + 0.25 * s.keyword + 0.2 * s.recency;
                const boost = Math.min(1 + 0.1 * accessCount, 2);
                expect(score).toBeCloseTo(hybrid * s.context_importance * boost * s.type_decay, 12);
                checked++;
              }
            }
          }
        }
      }
    }
    expect(checked).toBe(5 * 3 * 3 * 6 * 3 * 3);
  });
});
