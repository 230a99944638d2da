import { EMBEDDING_DIMENSIONS } from "./embedder";

/** Cosine similarity of two unit vectors, which is just their dot product. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

/**
 * Scales a vector to unit length. Returns null for a zero or non-finite vector, which has no
 * direction; callers decide whether that is a fallback case or a provider fault.
 */
export function normalise(v: ArrayLike<number>): number[] | null {
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] ?? 0;
    sum += x * x;
  }
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) return null;
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] ?? 0) / norm;
  return out;
}

/** The vector given to text without a single word: valid, unit-length, the same every time. */
export function uniformVector(): number[] {
  return new Array<number>(EMBEDDING_DIMENSIONS).fill(1 / Math.sqrt(EMBEDDING_DIMENSIONS));
}
