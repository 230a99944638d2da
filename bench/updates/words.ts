/**
 * A text's content words, as the knowledge-update set is checked with them: lower-cased runs of
 * letters and digits, less the lexical embedder's English stop words and the tails of
 * contractions ("I'm" → "i", "m"), each reduced by the lexical embedder's stemmer, so
 * "moved" and "move" are one word. An update's new text shares none of them with its old
 * text (test/bench/updates-data.test.ts), and a distractor shares none with the item it
 * stands beside (index.ts).
 */
import { STOP_WORDS, stemWord } from "../../worker/embed/local";

/** What is left of a contraction once the apostrophe splits it, and lone letters. */
const CONTRACTION_TAILS = new Set(["s", "m", "t", "d", "ll", "ve", "re"]);

export function contentWords(text: string): Set<string> {
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return new Set(
    words
      .filter((w) => !STOP_WORDS.has(w) && !CONTRACTION_TAILS.has(w) && w.length > 1)
      .map(stemWord),
  );
}

/** The content words two texts share, in the first text's order. */
export function sharedWords(a: string, b: string): string[] {
  const other = contentWords(b);
  return [...contentWords(a)].filter((w) => other.has(w));
}
