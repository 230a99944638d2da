/**
 * The spec's memory and relation types. A module of its own, with no imports, so that the
 * web console (console/) shares the very lists the API validates against.
 */
export const MEMORY_TYPES = [
  "correction",
  "preference",
  "decision",
  "project",
  "observation",
  "general",
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const RELATION_TYPES = [
  "related_to",
  "derived_from",
  "contradicts",
  "supersedes",
  "supports",
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];
