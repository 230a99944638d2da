/**
 * The keys of a recalled memory's `_signals`, in the order the scoring table of docs/recall.md
 * explains them: the recall table's columns (views/query-results.tsx). A module of its own,
 * with no imports, so that the browser test checks the console against this very list.
 */
export const RECALL_SIGNALS: readonly string[] = [
  "vector",
  "keyword",
  "recency",
  "base_importance",
  "effective_importance",
  "context_importance",
  "relation_count",
  "type_decay",
];
