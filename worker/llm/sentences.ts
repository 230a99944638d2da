/**
 * Sentence splitting for the rule-based provider and for chunking long input, deterministic
 * and dependency-free.
 *
 * Units first: a blank line ends a paragraph, a bullet or numbered item ("- ", "* ", "• ",
 * "1. ", "2) ") or a markdown heading starts a unit of its own (its marker removed), and any
 * other line break ends the unit too, except that a line not ending in . ! ? : ; followed by
 * one starting with a lower-case letter is a hard-wrapped sentence and is joined back.
 *
 * Then each unit is cut after . ! ? or … (plus closing quotes or brackets) followed by
 * white space, except: after a title abbreviation (Mr. Dr. e.g. i.e. vs. No. …) or a
 * single-letter initial ("J. Smith") never; after another abbreviation (etc. Inc. No. Jan. p.m.)
 * only when an upper-case letter follows; after a full stop followed by a lower-case letter
 * never. Decimals, versions, URLs and e-mail addresses have no space after their dots and so
 * are never cut.
 */

const BULLET = /^\s*(?:[-*•‣◦▪–—+]|\d{1,3}[.)]|[a-zA-Z][.)])\s+/;
const HEADING = /^\s*#{1,6}\s+/;
const ENDS_CLAUSE = /[.!?…:;]["'”’)\]]*$/;

/** Never end a sentence: titles and Latin abbreviations that are always followed by more. */
const TITLES = new Set(
  "mr mrs ms dr prof sr jr st vs fig approx ca cf e.g i.e eg ie al mt ft gen col lt sgt rev hon"
    .split(" ")
    .map((w) => w.replace(/\./g, "")),
);
/** Abbreviations that may also end a sentence: a boundary only before an upper-case letter. */
const OTHER_ABBREVIATIONS = new Set(
  (
    "no nos etc inc ltd co corp llc plc dept est min max jan feb mar apr jun jul aug sep sept oct nov dec " +
    "mon tue tues wed thu thur thurs fri sat sun am pm a.m p.m u.s u.k"
  )
    .split(" ")
    .map((w) => w.replace(/\./g, "")),
);

/** The text split into units (paragraph lines, bullets, headings), each then into sentences. */
export function splitSentences(text: string): string[] {
  return splitUnits(text).flatMap(splitUnit);
}

/** Paragraph-level units, see the header. Exported for chunking on paragraph boundaries. */
export function splitUnits(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const units: string[] = [];
  let current: string | null = null;
  const flush = () => {
    if (current !== null && current.trim() !== "") units.push(current.trim());
    current = null;
  };
  for (const rawLine of lines) {
    const line = rawLine.trim();
    if (line === "") {
      flush();
      continue;
    }
    if (BULLET.test(rawLine) || HEADING.test(rawLine)) {
      flush();
      current = line.replace(BULLET, "").replace(HEADING, "");
      continue;
    }
    if (current !== null && !ENDS_CLAUSE.test(current) && /^\p{Ll}/u.test(line)) {
      current = `${current} ${line}`;
      continue;
    }
    flush();
    current = line;
  }
  flush();
  return units;
}

const TERMINATOR = /[.!?…]+["'”’)\]]*(?=\s)/g;

function splitUnit(unit: string): string[] {
  const text = unit.replace(/\s+/g, " ").trim();
  const out: string[] = [];
  let start = 0;
  for (const match of text.matchAll(TERMINATOR)) {
    const end = (match.index ?? 0) + match[0].length;
    if (!isBoundary(text, match.index ?? 0, match[0], end)) continue;
    const sentence = text.slice(start, end).trim();
    if (sentence) out.push(sentence);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

function isBoundary(text: string, at: number, terminator: string, end: number): boolean {
  const next = text.slice(end).trimStart().charAt(0);
  if (next === "") return true;
  const first = terminator.charAt(0);
  if (first === "!" || first === "?") return true;
  // An ellipsis ends a sentence unless the text runs on in lower case.
  if (first === "…" || terminator.startsWith("..")) return !/\p{Ll}/u.test(next);
  // The word the full stop ends, with inner dots ("e.g", "p.m") kept.
  const before = text.slice(0, at).match(/([\p{L}\p{N}.]+)$/u)?.[1] ?? "";
  const word = before.toLowerCase().replace(/\./g, "");
  if (/^\p{L}$/u.test(before) && before !== "I") return false; // an initial: "J. Smith"
  if (TITLES.has(word)) return false;
  if (OTHER_ABBREVIATIONS.has(word)) return /\p{Lu}/u.test(next);
  return !/\p{Ll}/u.test(next);
}

/** Lower-case words only: the identity of a sentence or fact for "said twice". */
export function wordKey(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
}

/** `text` cut to at most `max` characters, at the last space when one is in the second half. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.lastIndexOf(" ");
  return (space > max / 2 ? head.slice(0, space) : head).trimEnd();
}
