/**
 * Markdown import rules (spec, POST /v1/migrate, rules 1-4), as pure functions:
 *  1. A file is split on `## ` headers (level 2); each section becomes one memory. Text before
 *     the first `## ` header is a section of its own; a file without such headers is one.
 *  2. A section is its header line plus body, trimmed, cut to 8,000 characters; sections
 *     under 10 characters are skipped.
 *  3. Importance and type come from keywords (first match wins, in the order of RULES):
 *     decision 0.9, correction 0.85, preference 0.8, project 0.7, observation 0.65,
 *     anything else general 0.6.
 *  4. Tags: `migrated`, the source tag `source:markdown`, `date:YYYY-MM-DD` when the file name
 *     holds such a date, then the header's words (lower-case, 3+ letters, no stop words), up
 *     to 10 tags in all.
 */
import type { MemoryType } from "../../schema/kinds";

export const SECTION_MAX = 8000;
export const SECTION_MIN = 10;
export const SOURCE_TAG = "source:markdown";
export const MIGRATED_TAG = "migrated";
const MAX_TAGS = 10;

export interface Section {
  header: string | null;
  content: string;
}

export interface MigratedMemory {
  content: string;
  importance: number;
  memoryType: MemoryType;
  tags: string[];
}

const H2 = /^##(?!#)[ \t]*(.*)$/;

export function splitSections(markdown: string): Section[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const sections: Array<{ header: string | null; lines: string[] }> = [{ header: null, lines: [] }];
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const match = inFence ? null : line.match(H2);
    if (match) sections.push({ header: (match[1] ?? "").trim(), lines: [line] });
    else sections[sections.length - 1]?.lines.push(line);
  }
  return sections
    .map((s) => ({ header: s.header, content: s.lines.join("\n").trim().slice(0, SECTION_MAX) }))
    .filter((s) => s.content.length >= SECTION_MIN);
}

const RULES: Array<{ type: MemoryType; importance: number; words: RegExp }> = [
  {
    type: "decision",
    importance: 0.9,
    words:
      /\b(decid(e|ed|es|ing)|decisions?|chose|chosen|agreed|we will|resolved to|settled on)\b/i,
  },
  {
    type: "correction",
    importance: 0.85,
    words: /\b(correct(ion|ed)?|actually|mistaken|wrong|not true|fix(ed)?|errata|instead of)\b/i,
  },
  {
    type: "preference",
    importance: 0.8,
    words: /\b(prefer(s|red|ence|ences)?|likes?|dislikes?|favou?rite|always|never|wants?)\b/i,
  },
  {
    type: "project",
    importance: 0.7,
    words: /\b(projects?|roadmap|milestones?|sprint|deadline|release|tasks?|todo|backlog)\b/i,
  },
  {
    type: "observation",
    importance: 0.65,
    words: /\b(noticed|observed?|observations?|seems?|appears?|saw|learned|found that)\b/i,
  },
];

export function classify(text: string): { memoryType: MemoryType; importance: number } {
  for (const rule of RULES) {
    if (rule.words.test(text)) return { memoryType: rule.type, importance: rule.importance };
  }
  return { memoryType: "general", importance: 0.6 };
}

const STOP = new Set(
  "the and for with from that this into about over under your our their notes note misc other".split(
    " ",
  ),
);

export function headerWords(header: string | null): string[] {
  if (!header) return [];
  const words = header.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? [];
  return words.filter((w) => w.length >= 3 && !STOP.has(w)).map((w) => w.slice(0, 64));
}

export function dateTag(filename: string): string | null {
  const m = filename.match(/(\d{4})-(\d{2})-(\d{2})/);
  if (!m) return null;
  const [, y, mo, d] = m;
  const date = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`
    ? null
    : `date:${y}-${mo}-${d}`;
}

/** Every memory one markdown file yields, by rules 1-4. */
export function memoriesFromMarkdown(filename: string, markdown: string): MigratedMemory[] {
  const date = dateTag(filename);
  return splitSections(markdown).map((section) => {
    const fixed = [MIGRATED_TAG, SOURCE_TAG, ...(date ? [date] : [])];
    const tags = [...new Set([...fixed, ...headerWords(section.header)])].slice(0, MAX_TAGS);
    return { content: section.content, ...classify(section.content), tags };
  });
}
