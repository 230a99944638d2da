/**
 * A question that joins two or more names ("Which cities have both Kate and Elise been to?",
 * "What do Jon, Gina and Tim have in common?") is answered by memories about each of them, and
 * each of those memories matches the whole question by half: its cosine and keyword signal
 * share the query with the name it lacks, so the top results fill with whatever mentions the
 * topic best, often one person only. recall.ts also ranks one sub-query per name (the
 * question with the joined names replaced by that one) and takes each memory's best score
 * over the question and its sub-queries.
 *
 * Names are capitalised words (not a question word or a month) joined by "and" or "&",
 * possibly in a comma list; "both" goes. Only the first such list counts, and
 * only in a query short enough to be a question: a long text is a document, not a question.
 * candidates.ts scores every memory against all of them in one statement, reading it once.
 * Measured with bge (replica of the ranking, 2026-11-27): REALTALK R@10 62.5 → 63.2
 * (multi-hop 45.4 → 47.0), LoCoMo 72.4 → 72.5, no category lower; docs/recall.md.
 */

/** Longest query split, in characters. */
const MAX_QUERY = 300;
/** Most sub-queries (names in one list). */
const MAX_SUB_QUERIES = 3;

const NOT_NAMES = new Set(
  (
    "I What When Where Which Who Whom Whose How Why Does Do Did Is Are Was Were Has Have Had Can " +
    "Could Would Will Should Shall May Might Must In On At The A An If And Or But Both " +
    "January February March April May June July August September October November December " +
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
  ).split(" "),
);

const NAME = "[A-Z][\\p{L}\\p{N}'’.-]*";
/** "Kate and Elise", "both Kate and Elise", "Jon, Gina, and Tim", "Kate & Elise". */
const JOINED = new RegExp(
  `(\\bboth,?\\s+)?\\b(${NAME}(?:\\s*,\\s*${NAME})*)\\s*,?\\s+(?:and|&)\\s+(${NAME})`,
  "u",
);

const isName = (word: string) => !NOT_NAMES.has(word.replace(/['’]s?$/, ""));

/** The query once per joined name, or [] when it joins no names. */
export function subQueries(query: string): string[] {
  if (query.length > MAX_QUERY) return [];
  const m = JOINED.exec(query);
  if (!m) return [];
  const names = [...(m[2] ?? "").split(/\s*,\s*/), m[3] ?? ""];
  if (!names.every(isName)) return [];
  const before = query.slice(0, m.index);
  const after = query.slice(m.index + m[0].length);
  return [...new Set(names)].slice(0, MAX_SUB_QUERIES).map((name) =>
    `${before}${name}${after}`
      .replace(/\bboth\b,?/gi, "")
      .replace(/\s+,/g, ",")
      .replace(/\s+/g, " ")
      .trim(),
  );
}
