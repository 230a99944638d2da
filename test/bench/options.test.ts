/**
 * The bench's command line (bench/options.ts): `--smoke` shrinks every part, and a size option
 * added later without a smoke value fails here, not as a smoke run of an hour in CI
 * (scripts/bench-smoke.sh runs the parts themselves). Also the dataset slice it asks for.
 */
import { describe, expect, it } from "vitest";
import { LOCOMO, type LocomoData, sliceLocomo } from "../../bench/locomo/data";
import { DEFAULTS, resolveArgs, SMOKE } from "../../bench/options";

const numbers = (list: string) => list.split(",").map(Number);

describe("npm run bench's options", () => {
  it("keep a full run's defaults without --smoke", () => {
    const args = resolveArgs([]);
    expect(args).toMatchObject(DEFAULTS);
    expect(args.sizes).toBe("1000,10000,100000");
    expect(args.embedder).toBe("bge");
    expect(args.conversations).toBeUndefined();
    expect(args.rounds).toBeUndefined();
  });

  it("--smoke gives every option that sizes a run a value of its own", () => {
    // Not sizes: where the bench listens, whether Mem0 runs, the flags themselves.
    const unsized = new Set(["port", "skip-mem0", "smoke", "help"]);
    for (const name of Object.keys(DEFAULTS).filter((n) => !unsized.has(n))) {
      expect(SMOKE, `--${name}`).toHaveProperty(name);
    }
    // Sized by their part when left out (main.ts): the whole dataset, 5 or 20 rounds.
    for (const name of ["conversations", "questions", "rounds", "other-rows"]) {
      expect(SMOKE, `--${name}`).toHaveProperty(name);
    }
  });

  it("--smoke makes every part small", () => {
    const a = resolveArgs(["--smoke"]);
    expect(a.smoke).toBe(true);
    expect(a.embedder).toBe("local");
    // locomo: one conversation, a few questions.
    expect(Number(a.conversations)).toBe(1);
    expect(Number(a.questions)).toBeLessThanOrEqual(10);
    // speed: one wallet through the API, one just past the exact-scan bound.
    expect(Math.max(...numbers(a.sizes))).toBeLessThanOrEqual(2001);
    expect(Number(a["api-seed-max"])).toBeLessThan(Math.max(...numbers(a.sizes)));
    expect(Number(a.queries)).toBeLessThanOrEqual(10);
    expect(Number(a.calls)).toBeLessThanOrEqual(10);
    expect(Number(a["other-rows"])).toBeLessThanOrEqual(1000);
    expect(Number(a["other-rows"])).toBeGreaterThan(0);
    expect(Number(a["mem0-max-size"])).toBeLessThanOrEqual(Math.min(...numbers(a.sizes)));
    // neighbours, concurrency, distance.
    expect(Number(a["neighbour-size"])).toBeLessThanOrEqual(200);
    expect(Number(a.wallets)).toBeLessThanOrEqual(2);
    expect(Number(a.rounds)).toBe(1);
    expect(Number(a.delay)).toBeLessThanOrEqual(5);
    // paid: a block per transaction, one run.
    expect(Number(a["paid-calls"])).toBeLessThanOrEqual(2);
    expect(Number(a.concurrent)).toBeLessThanOrEqual(2);
    expect(Number(a.attack)).toBeLessThanOrEqual(2);
    expect(Number(a["mixed-rounds"])).toBeLessThanOrEqual(2);
    expect(a["block-time"]).toBe("0");
  });

  it("take the command line's values over --smoke's", () => {
    const a = resolveArgs(["--smoke", "--sizes", "100", "--embedder", "bge", "--skip-mem0"]);
    expect(a.sizes).toBe("100");
    expect(a.embedder).toBe("bge");
    expect(a["skip-mem0"]).toBe(true);
    expect(a.queries).toBe(SMOKE.queries);
  });

  it("refuse an option the bench does not have", () => {
    expect(() => resolveArgs(["--smoke", "--size", "50"])).toThrow(/size/);
  });
});

describe("a slice of a LoCoMo dataset", () => {
  const conversation = (id: string, categories: number[]) => ({
    sampleId: id,
    turns: [{ diaId: "D1:1", session: 1, content: "[date] A: hello" }],
    questions: categories.map((category, i) => ({
      question: `q${i}`,
      category,
      evidence: ["D1:1"],
    })),
  });
  const data: LocomoData = {
    profile: LOCOMO,
    categories: [1, 2, 3, 4],
    conversations: [conversation("a", [4, 4, 1, 2]), conversation("b", [3])],
    evidenceRepaired: 0,
    evidenceDropped: [],
    questionsWithoutEvidence: 0,
  };

  it("keeps the first conversations and questions, and only the categories still asked", () => {
    const slice = sliceLocomo(data, { conversations: 1, questions: 3 });
    expect(slice.conversations.map((c) => c.sampleId)).toEqual(["a"]);
    expect(slice.conversations[0]?.questions.map((q) => q.question)).toEqual(["q0", "q1", "q2"]);
    expect(slice.conversations[0]?.turns).toHaveLength(1);
    expect(slice.categories).toEqual([1, 4]);
  });

  it("keeps everything when nothing is limited", () => {
    expect(sliceLocomo(data, {})).toEqual(data);
  });
});
