/** Vectors as pgvector text (worker/lib/vector-literal.ts): the float4 Postgres stores is exact. */
import { describe, expect, it } from "vitest";
import { vectorLiteral } from "../../worker/lib/vector-literal";

/** What pgvector's strtof makes of each component: the float4 nearest the decimal. */
const parsed = (literal: string) =>
  literal
    .slice(1, -1)
    .split(",")
    .map((c) => Math.fround(Number(c)));

describe("vectorLiteral", () => {
  it("writes a vector pgvector reads back as the float4 of every component", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Unit-vector components, and magnitudes from denormal float4 to a million.
    const values = [
      ...Array.from({ length: 20_000 }, () => (random() - 0.5) * 0.2),
      ...Array.from({ length: 20_000 }, () => (random() - 0.5) * 10 ** (random() * 50 - 44)),
      0,
      -0,
      1,
      -1,
      0.1,
      1e-8,
      1e-38,
      1e-45,
      123_456.789,
      999_999_999,
      1e8,
      1e9,
      1e12,
      ...Array.from({ length: 40 }, (_, i) => 10 ** (i - 30)),
    ];
    const literal = vectorLiteral(values);
    expect(literal).toMatch(/^\[[-0-9e.,+]+\]$/);
    // -0 reads back as -0 or 0: the same for every distance.
    expect(parsed(literal).map((x) => x + 0)).toEqual(values.map((x) => Math.fround(x) + 0));
  });

  it("writes the empty vector and single components in pgvector's form", () => {
    expect(vectorLiteral([])).toBe("[]");
    expect(vectorLiteral([0.5])).toBe("[0.5]");
    expect(vectorLiteral([-0.25, 0, 1e-8])).toBe("[-0.25,0,1e-8]");
  });
});
