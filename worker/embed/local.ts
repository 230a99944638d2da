import { countTokens } from "../lib/tokens";
import { EMBEDDING_DIMENSIONS, type Embedder, type Embedding } from "./embedder";
import { normalise, uniformVector } from "./vector";

/**
 * The built-in, offline embedder: deterministic feature hashing of the words of a text.
 *
 * It is LEXICAL, not semantic. Texts score as similar when they share words, word stems,
 * word pairs or spelling fragments ("deploy", "deployed", "deployment"); it knows nothing of
 * meaning, so synonyms ("car" / "automobile") or paraphrases score as unrelated. It exists so
 * the service works with no provider at all (tests, local dev, self-hosting); pick Workers AI
 * or an OpenAI-compatible model for real semantic recall.
 *
 * Features, each hashed (FNV-1a, then a murmur3 finaliser) into one of 384 signed buckets:
 * - the stem of every word (weight 1),
 * - every pair of neighbouring stems (0.5), the only features that see word order,
 * - the character trigrams of every word with boundary markers (0.3), which catch
 *   morphology the stemmer misses and typos.
 * English stop words are weighted ×0.1 rather than dropped, so "it is what it is" still gets a
 * vector of its own. Repeats count sublinearly (1 + ln tf) so one repeated word can't dominate.
 */
export class LocalEmbedder implements Embedder {
  readonly model = "local-lexical-v1";
  readonly semantic = false;

  async embed(texts: string[]): Promise<Embedding> {
    let tokens = 0;
    const vectors = texts.map((text) => {
      tokens += countTokens(text);
      return embedText(text);
    });
    return { vectors, tokens };
  }
}

const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.3;
const STOP_WORD_FACTOR = 0.1;

// Distinct FNV offset bases per feature kind, so the word "the" and the trigram "the" are
// different features.
const SEED_UNIGRAM = 0x811c9dc5;
const SEED_BIGRAM = 0x01000193 ^ 0x5bd1e995;
const SEED_TRIGRAM = 0x9e3779b9;

/** Letters (with their combining marks) and digits; everything else separates words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** English stop words, left out of the features (also the benchmark's BM25 baseline). */
export const STOP_WORDS = new Set(
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

/** One text to one unit vector. */
export function embedText(text: string): number[] {
  // NFKC first so composed and decomposed accents (and full-width forms) are the same word.
  const lower = text.normalize("NFKC").toLowerCase();
  const table = scratch;
  table.reset();

  let prevStem: string | null = null;
  let prevFactor = 0;
  for (const match of lower.matchAll(WORD)) {
    const word = match[0];
    const factor = STOP_WORDS.has(word) ? STOP_WORD_FACTOR : 1;
    const stem = stemWord(word);
    table.add(fnv(SEED_UNIGRAM, stem), UNIGRAM_WEIGHT * factor);
    if (prevStem !== null) {
      // fnv(prev + "\u0001" + stem) without building the string.
      const h = fnv(fnvChar(fnv(SEED_BIGRAM, prevStem), 1), stem);
      table.add(h, BIGRAM_WEIGHT * Math.min(prevFactor, factor));
    }
    addTrigrams(table, word, TRIGRAM_WEIGHT * factor);
    prevStem = stem;
    prevFactor = factor;
  }

  if (table.size === 0) return uniformVector();
  const acc = new Float64Array(EMBEDDING_DIMENSIONS);
  table.forEach((h, count, weight) => {
    const bucket = fmix32(h) % EMBEDDING_DIMENSIONS;
    // The sign comes from an independent mix so colliding features cancel on average
    // instead of piling up in one direction.
    const sign = fmix32((h + 0x9e3779b9) >>> 0) & 1 ? -1 : 1;
    acc[bucket] = (acc[bucket] ?? 0) + sign * weight * (1 + Math.log(count));
  });
  return normalise(acc) ?? uniformVector();
}

/**
 * Feature hash → (count, weight), open addressing over typed arrays. A Map cost ~0.3 ms per
 * 10k updates, most of the embedding time for a long text; this is several times faster and
 * reused between calls (embedding is synchronous, so one scratch table per isolate is safe).
 */
class FeatureTable {
  size = 0;
  private keys = new Uint32Array(1024); // 0 marks an empty slot
  private counts = new Uint32Array(1024);
  private weights = new Float64Array(1024);
  private shift = 32 - 10;

  reset(): void {
    if (this.size === 0) return;
    this.keys.fill(0);
    this.size = 0;
  }

  /** Counts one occurrence; a feature seen at several weights keeps the highest. */
  add(hash: number, weight: number): void {
    const key = hash === 0 ? 1 : hash;
    const mask = this.keys.length - 1;
    let i = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const k = this.keys[i];
      if (k === key) {
        this.counts[i] = (this.counts[i] ?? 0) + 1;
        // Order-independent: a trigram shared by a stop word and a content word gets the
        // content word's weight whichever comes first.
        if (weight > (this.weights[i] ?? 0)) this.weights[i] = weight;
        return;
      }
      if (k === 0) break;
      i = (i + 1) & mask;
    }
    this.keys[i] = key;
    this.counts[i] = 1;
    this.weights[i] = weight;
    this.size++;
    if (this.size * 2 > this.keys.length) this.grow();
  }

  forEach(f: (hash: number, count: number, weight: number) => void): void {
    const { keys, counts, weights } = this;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] ?? 0;
      if (k !== 0) f(k, counts[i] ?? 0, weights[i] ?? 0);
    }
  }

  private grow(): void {
    const { keys, counts, weights } = this;
    const cap = keys.length * 2;
    this.keys = new Uint32Array(cap);
    this.counts = new Uint32Array(cap);
    this.weights = new Float64Array(cap);
    this.shift--;
    const mask = cap - 1;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j] ?? 0;
      if (key === 0) continue;
      let i = Math.imul(key, 0x9e3779b1) >>> this.shift;
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = key;
      this.counts[i] = counts[j] ?? 0;
      this.weights[i] = weights[j] ?? 0;
    }
  }
}

const scratch = new FeatureTable();

/** Trigrams of "\u0002word\u0003"; a one-letter word yields exactly one. */
function addTrigrams(table: FeatureTable, word: string, w: number): void {
  const n = word.length;
  const at = (p: number) => (p === 0 ? 2 : p === n + 1 ? 3 : word.charCodeAt(p - 1));
  for (let p = 0; p + 2 <= n + 1; p++) {
    let h = fnvChar(SEED_TRIGRAM, at(p));
    h = fnvChar(h, at(p + 1));
    h = fnvChar(h, at(p + 2));
    table.add(h, w);
  }
}

/**
 * A deliberately small suffix stripper: plurals, -ing, -ed, -ly, only when at least three
 * characters remain, and undoubling "runn" → "run". It conflates the common inflections and
 * leaves anything doubtful alone; trigrams cover what it misses.
 */
export function stemWord(word: string): string {
  const base = stripPlural(word);
  const n = base.length;
  if (n <= 4) return base;
  if (base.endsWith("ied")) return `${base.slice(0, -3)}y`;
  if (base.endsWith("ing") && n - 3 >= 3) return undouble(base.slice(0, -3));
  if (base.endsWith("ed") && n - 2 >= 3) return undouble(base.slice(0, -2));
  if (base.endsWith("ly") && n - 2 >= 3) return base.slice(0, -2);
  return base;
}

/** Runs first, so "meetings" → "meeting" → "meet" agrees with "meeting" → "meet". */
function stripPlural(word: string): string {
  const n = word.length;
  if (n <= 3 || !word.endsWith("s")) return word;
  if (word.endsWith("ies") && n > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(?:sh|ch|[xz])es$/.test(word)) return word.slice(0, -2);
  if (/[siu]s$/.test(word)) return word;
  return word.slice(0, -1);
}

/** "runn" → "run", "stopp" → "stop"; l, s and z stay doubled ("fall", "pass", "buzz"). */
function undouble(stem: string): string {
  const n = stem.length;
  const last = stem.charCodeAt(n - 1);
  if (n >= 3 && last === stem.charCodeAt(n - 2) && /[b-df-hj-km-np-rtv-y]$/.test(stem)) {
    return stem.slice(0, -1);
  }
  return stem;
}

function fnv(seed: number, s: string): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = fnvChar(h, s.charCodeAt(i));
  return h;
}

function fnvChar(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193) >>> 0;
}

/**
 * murmur3's finaliser: FNV-1a alone has weak low bits, and the bucket is taken from them.
 * (Tests use it too, to pick filler words well spread and the same on every run.)
 */
export function fmix32(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
