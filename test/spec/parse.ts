/**
 * The spec's facts the tests take from its own words rather than restating them beside the
 * code they check: the memory and relation types and the type half-lives. Plain string
 * parsing, no I/O, so it runs in Node (test/spec/read.ts) and in workerd (its own test).
 * A sentence it no longer finds throws, so a reworded spec fails the run loudly instead of
 * leaving a test with nothing to compare.
 */

export interface SpecFacts {
  /** The Memory table's `memory_type` values, in the spec's order. */
  memoryTypes: string[];
  /** The Relation table's `relation_type` values, in the spec's order. */
  relationTypes: string[];
  /** "Memory type decay half-lives", in days by type. */
  halfLifeDays: Record<string, number>;
}

export function parseSpecFacts(markdown: string): SpecFacts {
  // The memory_type cell ends "; default `general`", which names no further type.
  const memoryTypes = codeWords(tableRule(markdown, "memory_type").replace(/;.*$/, ""));
  const relationTypes = codeWords(tableRule(markdown, "relation_type"));
  const halfLives = line(markdown, /^Memory type decay half-lives:.*$/m);
  const halfLifeDays = Object.fromEntries(
    [...halfLives.matchAll(/`(\w+)` (\d+) days/g)].map((m) => [m[1], Number(m[2])]),
  );
  if (memoryTypes.length === 0 || relationTypes.length === 0)
    throw new Error("spec: the memory_type or relation_type row lists no values");
  const decayed = Object.keys(halfLifeDays).sort().join();
  if (decayed !== [...memoryTypes].sort().join())
    throw new Error(`spec: half-lives for [${decayed}], memory types [${memoryTypes}]`);
  return { memoryTypes, relationTypes, halfLifeDays };
}

/** The Rules cell of a field's first table row: | `field` | type | rules |. */
function tableRule(markdown: string, field: string): string {
  const row = line(markdown, new RegExp(`^\\| \`${field}\` \\|.*$`, "m"));
  return row.split("|")[3] ?? "";
}

function line(markdown: string, pattern: RegExp): string {
  const found = markdown.match(pattern);
  if (!found) throw new Error(`spec: no line matches ${pattern}`);
  return found[0];
}

/** The `code` words of a cell, each once, in order. */
function codeWords(cell: string): string[] {
  const words = [...cell.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? "");
  return [...new Set(words)];
}
