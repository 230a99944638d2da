/**
 * Deterministic synthetic memories for the speed part: words of 2-4 syllables from a fixed
 * 5,000-word vocabulary, chosen Zipf-like (a few words common, most rare, as in real text),
 * 8-30 words a sentence. The same seed always gives the same texts, so the service and Mem0
 * are given identical data and identical queries.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gi ho ju ly pa qu re so tu wi xe ya zo".split(
  " ",
);

const VOCAB: string[] = (() => {
  const r = prng(7);
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < 5000) {
    const n = 2 + Math.floor(r() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
})();

export function word(r: () => number): string {
  return VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * r() ** 3))] ?? "ka";
}

export function sentence(r: () => number): string {
  const n = 8 + Math.floor(r() * 22);
  return Array.from({ length: n }, () => word(r)).join(" ");
}

export const TYPES = ["general", "observation", "preference", "decision", "project", "correction"];

export interface SyntheticQuery {
  query: string;
  /** The stored text the query was drawn from. */
  target: string;
}

/** A query built from one stored memory's words: five of them shuffled, plus two noise words. */
export function queryFor(texts: string[], r: () => number): SyntheticQuery {
  const target = texts[Math.floor(r() * texts.length)] ?? "";
  const words = target
    .split(" ")
    .sort(() => r() - 0.5)
    .slice(0, 5);
  return { query: [...words, word(r), word(r)].join(" "), target };
}
