/**
 * Vectors as pgvector text (schema/vector-literal.ts): hexadecimal floats, read back by
 * Postgres as the float4 of every component, the same as the vector's JSON gives.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memories } from "../../schema/tables";
import { vectorLiteral } from "../../schema/vector-literal";
import { withDb } from "../db";

/** A component as strtof reads it: a normal float4 in hex, anything else in decimal. */
function component(text: string): number {
  const hex = /^(-?)0x1\.([0-9a-f]{6})p(-?\d+)$/.exec(text);
  if (!hex) return Math.fround(Number(text));
  const [, sign, fraction = "", exponent = ""] = hex;
  const magnitude = (1 + Number.parseInt(fraction, 16) / 2 ** 24) * 2 ** Number(exponent);
  return sign ? -magnitude : magnitude;
}
const parsed = (literal: string) => literal.slice(1, -1).split(",").map(component);

let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
// Unit-vector components, and magnitudes from subnormal float4 to a trillion. Some twenty of
// these doubles lie exactly halfway between two float4s (the seeded values have few bits).
const VALUES = [
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
  2 ** -126,
  2 ** -127,
  123_456.789,
  999_999_999,
  1e8,
  1e9,
  1e12,
  ...Array.from({ length: 40 }, (_, i) => 10 ** (i - 30)),
];

describe("vectorLiteral", () => {
  it("writes each component as the float4 nearest to it", () => {
    const literal = vectorLiteral(VALUES);
    expect(literal).toMatch(/^\[[-0-9a-fx.,p+e]+\]$/);
    // -0 reads back as -0 or 0: the same for every distance.
    expect(parsed(literal).map((x) => x + 0)).toEqual(VALUES.map((x) => Math.fround(x) + 0));
  });

  it("writes the empty vector, zeros and powers of two in pgvector's form", () => {
    expect(vectorLiteral([])).toBe("[]");
    expect(vectorLiteral([0.5])).toBe("[0x1.000000p-1]");
    expect(vectorLiteral([-0.25, 0, -0, 0.1])).toBe("[-0x1.000000p-2,0,0,0x1.99999ap-4]");
    // Halfway between two float4s: the decimal, which strtof rounds away from zero here.
    expect(vectorLiteral([-0.06918110325932503])).toBe("[-0.06918110325932503]");
  });

  it("makes Postgres store the same vector as the JSON does", async () => {
    // Chunks of pgvector's largest vector, 16,000 components.
    const chunks = Array.from({ length: Math.ceil(VALUES.length / 16_000) }, (_, i) =>
      VALUES.slice(i * 16_000, (i + 1) * 16_000),
    );
    await withDb(async (db) => {
      for (const chunk of chunks) {
        const res = await db.execute<{ same: boolean; dims: number }>(
          sql`SELECT ${vectorLiteral(chunk)}::vector = ${JSON.stringify(chunk)}::vector AS same,
            vector_dims(${vectorLiteral(chunk)}::vector) AS dims`,
        );
        expect(res.rows[0]).toEqual({ same: true, dims: chunk.length });
      }
    });
  });

  it("is how the memories table's embedding column writes, and it reads pgvector's text back", async () => {
    // PATCH, merges, consolidation and import write vectors through this drizzle column.
    const v = VALUES.slice(0, 384);
    expect(memories.embedding.mapToDriverValue(v)).toBe(vectorLiteral(v));
    await withDb(async (db) => {
      const res = await db.execute<{ hex: string; json: string }>(
        sql`SELECT ${vectorLiteral(v)}::vector::text AS hex, ${JSON.stringify(v)}::vector::text AS json`,
      );
      const read = (text = "") => memories.embedding.mapFromDriverValue(text) as number[];
      const back = read(res.rows[0]?.hex);
      expect(back).toHaveLength(384);
      // The float4s the JSON would have stored: pgvector prints their shortest decimals.
      expect(back).toEqual(read(res.rows[0]?.json));
      expect(back.every((x, i) => Math.abs(x - (v[i] ?? 0)) < 1e-8)).toBe(true);
    });
  });
});
