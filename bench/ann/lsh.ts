/**
 * Locality-sensitive band keys for deduplication (a design measured by designs.ts, not
 * used by the service): the signs of BANDS × BITS fixed random projections of the vector
 * minus the corpus mean, cut into BANDS keys of BITS bits each, numbered by band. Two vectors
 * at a small angle share a band with high probability, two unrelated ones rarely; a GIN index
 * on the keys then gives deduplication a handful of candidates to compare exactly, and costs
 * an insert one posting per band. Centring matters: bge's vectors all lie in a narrow cone
 * (unrelated sentences at cosine ~0.5-0.7), so raw signs agree across most pairs.
 */
import { prng } from "../lib/synthetic";

export const BANDS = Number(process.env.LSH_BANDS ?? 48);
export const BITS = Number(process.env.LSH_BITS ?? 10);

function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

/** Key maker for vectors of `dim` dimensions around `mean`. */
export function lshKeys(mean: Float32Array, seed = 5): (v: Float32Array) => number[] {
  const dim = mean.length;
  const r = prng(seed);
  const planes = Array.from({ length: BANDS * BITS }, () =>
    Float32Array.from({ length: dim }, () => gaussian(r)),
  );
  return (v) => {
    const keys: number[] = [];
    for (let band = 0; band < BANDS; band++) {
      let code = 0;
      for (let b = 0; b < BITS; b++) {
        const plane = planes[band * BITS + b] ?? new Float32Array(dim);
        let dot = 0;
        for (let d = 0; d < dim; d++) dot += (plane[d] ?? 0) * ((v[d] ?? 0) - (mean[d] ?? 0));
        if (dot > 0) code |= 1 << b;
      }
      keys.push(band * 2 ** BITS + code);
    }
    return keys;
  };
}
