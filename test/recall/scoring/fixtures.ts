/** A fixed `now` and a memory input for the recall score's unit tests. */
import type { ScoreInput } from "../../../worker/recall/scoring";

export const DAY = 86_400_000;
export const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);
export const daysAgo = (d: number) => new Date(NOW - d * DAY);

/** A memory that isolates the hybrid: full importance, pinned, never accessed, fresh. */
export function input(over: Partial<ScoreInput> = {}): ScoreInput {
  return {
    vector: 0,
    keyword: 0,
    importance: 1,
    memoryType: "general",
    pinned: true,
    accessCount: 0,
    relationCount: 0,
    createdAt: daysAgo(0),
    accessedAt: daysAgo(0),
    ...over,
  };
}

export const FAR_PAST = 1_000_000; // days: recency exp(-33333) is exactly 0 in floating point
