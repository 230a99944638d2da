/**
 * The spec's memory and relation types: the words the `memory_type` and relation `type`
 * columns hold. A module of its own, with no imports, so that the Worker's validation, its
 * language-model interface and the web console (console/) share the very same lists.
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
