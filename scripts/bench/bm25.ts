/**
 * Plain Okapi BM25 (k1 = 1.2, b = 0.75, Lucene's idf), in process: the lexical baseline for
 * the LoCoMo part. Tokens are lower-cased runs of letters and digits; English stop words are
 * dropped; no stemming. Same content strings as the other systems.
 */
const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before " +
    "being below between both but by can could did do does doing down during each few for " +
    "from further had has have having he her here hers herself him himself his how i if in " +
    "into is it its itself just me more most my myself no nor not now of off on once only or " +
    "other our ours ourselves out over own same she should so some such than that the their " +
    "theirs them themselves then there these they this those through to too under until up " +
    "very was we were what when where which while who whom why will with would you your " +
    "yours yourself yourselves"
  ).split(" "),
);

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
