/**
 * A vector as pgvector's text input, `[x,y,…]`, written fast.
 *
 * Each component is written as an integer count of 1e-9 (`12345678e-9`): integers print
 * several times faster than the shortest round-trip form of a double, which is what
 * `join(",")` and JSON give. For 100 vectors of 384 components (one batch store): ~3.5 ms
 * here, against 6.6 (JSON) and 10.4 (join). pgvector keeps float4, whose spacing is ≥ 1.9e-9
 * for the components of a unit vector above 2^-5, so the stored value is the same float4 or
 * its neighbour: a cosine moves by less than 1e-8. Components are expected within ±1; larger ones
 * are written as they are.
 */
export function vectorLiteral(v: readonly number[]): string {
  let s = "[";
  for (let i = 0; i < v.length; i++) {
    if (i > 0) s += ",";
    const x = v[i] ?? 0;
    const n = Math.round(x * 1e9);
    // Outside ±9e6 (never for an embedding, whose components are within ±1) as it is.
    s += Number.isSafeInteger(n) ? `${n}e-9` : String(x);
  }
  return `${s}]`;
}
