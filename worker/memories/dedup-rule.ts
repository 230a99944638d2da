/**
 * Deduplication on store that never loses a fact. The spec merges a new memory into an
 * existing one at cosine ≥ 0.95, but a real model puts distinct facts above that line: with
 * bge-small-en-v1.5, "…support group on 7 May 2023" / "…on 20 July 2023" score 0.966. So:
 *
 * 1. Texts that differ in what carries a fact's identity are distinct memories, whatever
 *    their cosine: a number, a date or time word, a name, or a negation; and on store, a
 *    pronoun (who is meant: "What about Kate?" / "What about you Kate?" are two questions).
 *    Consolidation's clusters still take "Our team uses X" and "The service runs on X" for
 *    paraphrases: they merge into one memory that keeps both texts. The test is on the
 *    words the two texts do not share (case-insensitive, by stem). It errs towards keeping
 *    both: a differing capitalised word at a sentence start counts as a name unless it is a
 *    stop word. Consolidation clusters and context's summarize groups by the same rule
 *    (`mayMerge`: consolidate/clusters.ts, recall/context.ts).
 * 2. Texts that pass may still say different things in the same words' frame ("Thanks,
 *    Caroline! This has been great for my mental health" / "Caroline, thanks! Mental health
 *    is important to me", 0.956), so a merge keeps both texts unless one contains the other
 *    or they differ only in stop words, case and punctuation.
 *
 * Measured on LoCoMo with bge (docs/memories.md, "Behaviour the spec leaves open"): 89 of 2,760
 * turns merged and each lost its text before; rule 1 leaves 1 merge, and 2 keeps its text.
 */
import { STOP_WORDS, stemWord } from "../embed/local";
import { LIMITS } from "./fields";

/** Cardinals, ordinals and multipliers spelled out; digits are recognised separately. */
const NUMBER_WORDS = new Set(
  (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen " +
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy " +
    "eighty ninety hundred thousand million billion first second third fourth fifth sixth " +
    "seventh eighth ninth tenth once twice thrice half dozen couple few several many"
  ).split(" "),
);

/** Calendar and clock words, and the relative ones that place a fact in time. */
const TIME_WORDS = new Set(
  (
    "january february march april may june july august september october november december " +
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday " +
    "friday saturday sunday mon tue tues wed thu thur thurs fri sat sun today tonight " +
    "tomorrow yesterday morning afternoon evening night noon midnight weekend weekday day " +
    "days week weeks month months year years decade hour hours minute minutes am pm last " +
    "next ago earlier later soon recently previous upcoming spring summer autumn fall winter"
  ).split(" "),
);

const NEGATIONS = new Set(
  "not no never none nothing nobody nowhere neither nor cannot without".split(" "),
);

/**
 * Who a statement is about or addressed to: "What about Kate?" and "What about you Kate?"
 * (REALTALK) ask different people, though only a stop word differs. Store's rule only.
 */
const PRONOUNS = new Set(
  (
    "i me my mine myself you your yours yourself yourselves he him his himself she her hers " +
    "herself it its itself we us our ours ourselves they them their theirs themselves"
  ).split(" "),
);

/** A word: letters, digits and inner apostrophes ("don't", "Anna's"). */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

interface Word {
  lower: string;
  /** Compared by stem, so "morning" / "mornings" is no difference. */
  stem: string;
  /** Capitalised where a sentence does not start: a name, or a word used as one. */
  name: boolean;
}

function words(text: string): Word[] {
  const out: Word[] = [];
  for (const match of text.normalize("NFKC").matchAll(WORD)) {
    const raw = match[0].replace(/’/g, "'");
    const lower = raw.toLowerCase();
    const start = match.index ?? 0;
    const before = text.slice(0, start).trimEnd();
    // Sentence starts: the text's start, after . ! ? : and after an opening bracket or quote.
    const sentenceStart = before === "" || /[.!?:[("“'‘]$/.test(before);
    const capital = /^\p{Lu}/u.test(raw) && raw !== "I" && !raw.startsWith("I'");
    const name = capital && (!sentenceStart || !STOP_WORDS.has(lower));
    out.push({ lower, stem: stemWord(lower), name });
  }
  return out;
}

function carriesFact(word: Word, pronouns: boolean): boolean {
  const bare = word.lower.replace(/'s$/, "");
  return (
    /\p{N}/u.test(bare) ||
    NUMBER_WORDS.has(bare) ||
    TIME_WORDS.has(bare) ||
    NEGATIONS.has(bare) ||
    (pronouns && PRONOUNS.has(bare)) ||
    bare.endsWith("n't") ||
    word.name
  );
}

/**
 * The words of `a` that `b` lacks and vice versa which carry a fact's identity, e.g.
 * ["7", "may", "20", "july"]; empty when the texts may merge. `pronouns`: they count too
 * (store's rule).
 */
export function distinguishingWords(a: string, b: string, pronouns = false): string[] {
  const wa = words(a);
  const wb = words(b);
  const inA = new Set(wa.map((w) => w.stem));
  const inB = new Set(wb.map((w) => w.stem));
  const out = new Set<string>();
  for (const w of wa) if (!inB.has(w.stem) && carriesFact(w, pronouns)) out.add(w.lower);
  for (const w of wb) if (!inA.has(w.stem) && carriesFact(w, pronouns)) out.add(w.lower);
  return [...out];
}

/**
 * Whether two texts may be taken for the same fact (rule 1: no distinguishing word), so
 * that consolidation may cluster them and context's summarize may group them.
 */
export function mayMerge(a: string, b: string): boolean {
  return distinguishingWords(a, b).length === 0;
}

export type MergedText =
  /** The existing text already contains the new one: unchanged. */
  | { kind: "kept" }
  /** The new text contains the existing one: it replaces it. */
  | { kind: "replaced" }
  /** Neither contains the other: both, the existing one first. */
  | { kind: "joined"; content: string };

/**
 * How a new text merges into an existing one whose vector is ≥ 0.95 similar, or null when
 * they are distinct memories (rule 1, or both together would exceed the content limit).
 * Containment is compared ignoring case and runs of white space.
 */
export function mergeText(existing: string, incoming: string): MergedText | null {
  const a = comparable(existing);
  const b = comparable(incoming);
  // One text inside the other: keeping the longer loses nothing, whatever else differs.
  if (a.includes(b)) return { kind: "kept" };
  if (b.includes(a)) return { kind: "replaced" };
  if (distinguishingWords(existing, incoming, true).length > 0) return null;
  // Only stop words, case or punctuation differ ("on the Tuesday" / "on Tuesday"): the same
  // statement, so the newer wording replaces the older one, as a correction would.
  if (contentStems(existing) === contentStems(incoming)) return { kind: "replaced" };
  const first = existing.trimEnd();
  const content = `${first}${/[.!?…]$/.test(first) ? "" : "."} ${incoming.trim()}`;
  return content.length <= LIMITS.content ? { kind: "joined", content } : null;
}

/** The distinct stems of a text's words other than stop words, sorted, as one string. */
function contentStems(text: string): string {
  const stems = words(text)
    .filter((w) => !STOP_WORDS.has(w.lower))
    .map((w) => w.stem);
  return [...new Set(stems)].sort().join(" ");
}

/** Case and runs of white space do not make a text say something else. */
function comparable(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
