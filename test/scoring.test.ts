/**
 * Pure unit tests of the recall score (worker/recall/scoring.ts) with a fixed `now`:
 * the spec's rules 1-6 and the choices documented in the module's header comment.
 */
import { describe, expect, it } from "vitest";
import {
  HALF_LIFE_DAYS,
  hybridScore,
  RECENCY_DAYS,
  relevantVector,
  type ScoreInput,
  scoreMemory,
  typeDecay,
  WEIGHTS,
} from "../worker/recall/scoring";

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);
const daysAgo = (d: number) => new Date(NOW - d * DAY);

/** A memory that isolates the hybrid: full importance, pinned, never accessed, fresh. */
function input(over: Partial<ScoreInput> = {}): ScoreInput {
  return {
    vector: 0,
    keyword: 0,
    importance: 1,
    memoryType: "general",
    pinned: true,
    accessCount: 0,
    relationCount: 0,
    createdAt: daysAgo(0),
    accessedAt: daysAgo(0),
    ...over,
  };
}

const FAR_PAST = 1_000_000; // days: recency exp(-33333) is exactly 0 in floating point

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
    const context = effective * 0.55 ** 4;
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

  it("context_importance = effective · ((vector + keyword) / 2)⁴ for the lexical embedder", () => {
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
      const expected = effective * ((c.vector + c.keyword) / 2) ** 4;
      const { signals } = scoreMemory(input(c), NOW);
      expect(signals.context_importance).toBeCloseTo(expected, 12);
    }
    // Worked example: importance 0.4 → effective 0.7; relevance (0.3 + 0.6) / 2 = 0.45 →
    // 0.7 · 0.04100625 = 0.028704375.
    expect(
      scoreMemory(input({ importance: 0.4, vector: 0.3, keyword: 0.6 }), NOW).signals
        .context_importance,
    ).toBeCloseTo(0.028704375, 12);
  });

  it("a semantic model's cosine counts by its place between the query's median and best", () => {
    const scale = { median: 0.5, best: 0.7 };
    const context = (vector: number, keyword: number, sc = scale) =>
      scoreMemory(input({ importance: 1, vector, keyword }), NOW, sc).signals.context_importance;
    // 0.6 is halfway from the median to the best: vector' 0.5, relevance (0.5 + 0.2) / 2.
    expect(context(0.6, 0.2)).toBeCloseTo(0.35 ** 4, 12);
    expect(context(0.7, 0)).toBeCloseTo(0.5 ** 4, 12);
    expect(context(0.45, 0.4)).toBeCloseTo(0.2 ** 4, 12);
    // The reported vector signal stays the cosine.
    expect(scoreMemory(input({ vector: 0.6 }), NOW, scale).signals.vector).toBe(0.6);
    // One memory scored (median = best): it is the best match.
    expect(context(0.6, 0, { median: 0.6, best: 0.6 })).toBeCloseTo(0.5 ** 4, 12);
    expect(relevantVector(0, scale)).toBe(0);
    expect(relevantVector(0.9, scale)).toBe(1);
    expect(relevantVector(0.3, null)).toBe(0.3);
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

describe("scoring: type decay (rule 6)", () => {
  it("uses the spec's half-lives", () => {
    expect(HALF_LIFE_DAYS).toEqual({
      correction: 180,
      preference: 180,
      decision: 90,
      project: 30,
      observation: 14,
      general: 60,
    });
  });

  it("halves after one half-life of idleness for every type", () => {
    const halfLives: Array<[string, number]> = [
      ["observation", 14],
      ["general", 60],
      ["correction", 180],
      ["preference", 180],
      ["decision", 90],
      ["project", 30],
    ];
    for (const [type, days] of halfLives) {
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
