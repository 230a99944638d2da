/**
 * Plain Okapi BM25 (k1 = 1.2, b = 0.75, Lucene's idf), in process: the lexical baseline for
 * the LoCoMo part. Tokens are lower-cased runs of letters and digits; English stop words are
 * dropped; no stemming. Same content strings as the other systems.
 */
import { STOP_WORDS } from "../../worker/embed/local";

const K1 = 1.2;
const B = 0.75;

export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP_WORDS.has(t));
}

export class Bm25Index {
  private readonly docs: Array<Map<string, number>> = [];
  private readonly lengths: number[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  add(text: string): number {
    const tf = new Map<string, number>();
    const tokens = tokenize(text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.docs.push(tf);
    this.lengths.push(tokens.length);
    this.totalLength += tokens.length;
    return this.docs.length - 1;
  }

  /** Indices of the best `k` documents, best first (ties by insertion order). */
  search(query: string, k: number): number[] {
    const n = this.docs.length;
    if (n === 0) return [];
    const avg = this.totalLength / n;
    const terms = [...new Set(tokenize(query))];
    const idf = terms.map((t) => {
      const df = this.df.get(t) ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    const scored: Array<{ i: number; score: number }> = [];
    for (let i = 0; i < n; i++) {
      const tf = this.docs[i];
      if (!tf) continue;
      const norm = K1 * (1 - B + (B * (this.lengths[i] ?? 0)) / avg);
      let score = 0;
      terms.forEach((t, j) => {
        const f = tf.get(t);
        if (f) score += ((idf[j] ?? 0) * f * (K1 + 1)) / (f + norm);
      });
      if (score > 0) scored.push({ i, score });
    }
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, k).map((s) => s.i);
  }
}
