/**
 * The shapes the LoCoMo part passes between its files (a system, its answers, the per-question
 * results and the per-system report written to the JSON) and K, the one result-list length.
 * Split out of the former bench/locomo/index.ts so that each job's file stays short; also
 * the one warm-up every system runs.
 */

import type { LatencySummary } from "../lib/stats";
import type { Conversation } from "./data";

export const K = 10;

/** What one system returns for one question: each result as the dia_ids it stands for. */
export interface Answer {
  ms: number;
  ranked: string[][];
  /** Ours only: the recall signals and access count of each result, for diagnosis. */
  signals?: unknown[];
  /** Ours only: the Server-Timing header. */
  timing?: string | null;
}

export interface Prepared {
  ingestMs: number;
  memories: number;
  merged: number;
  /** Ours only: what deduplication did to the turns (see readBack). */
  dedup?: DedupOutcome;
  /** Ours only: mean Server-Timing of the store calls. */
  ingestTiming?: Record<string, number>;
  ask(query: string): Promise<Answer>;
}

export interface System {
  key: string;
  label: string;
  prepare(conv: Conversation): Promise<Prepared>;
}

/**
 * A system's warm-up, run once, on the first conversation it is given: its first 20 turns
 * stored and its first 10 questions asked, outside every measurement and every real user.
 */
export function warmUpOnce(
  warmUp: (turns: Conversation["turns"], questions: Conversation["questions"]) => Promise<void>,
): (conv: Conversation) => Promise<void> {
  let warm = false;
  return async (conv) => {
    if (warm) return;
    warm = true;
    await warmUp(conv.turns.slice(0, 20), conv.questions.slice(0, 10));
  };
}

export interface QuestionResult {
  sample_id: string;
  category: number;
  question: string;
  evidence: string[];
  recall: { 1: number; 5: number; 10: number };
  /** 1 when at least one evidence turn is among the first k results, else 0. */
  hit: { 1: number; 5: number; 10: number };
  ms: number;
  top: string[][];
  signals?: unknown[];
}

export type Figures = Record<"r1" | "r5" | "r10" | "h1" | "h5" | "h10", number>;

export interface SystemReport {
  key: string;
  label: string;
  overall: Figures;
  by_category: Record<number, Figures & { questions: number }>;
  recall_latency_ms: LatencySummary;
  ingest: Array<{
    sample_id: string;
    turns: number;
    memories: number;
    merged: number;
    ms: number;
    server_timing_ms?: Record<string, number>;
    dedup?: DedupOutcome;
  }>;
  ingest_ms_total: number;
  /** Ours only: mean Server-Timing of the recall calls. */
  recall_server_timing_ms?: Record<string, number>;
  questions: QuestionResult[];
}

/** What deduplication did to one conversation's turns in our store. */
export interface DedupOutcome {
  /** Turns the store merged into an earlier memory (deduplicated: true). */
  merged: number;
  /** Turns whose text the memory they went to no longer holds. */
  text_lost: number;
  /** …of which questions name as evidence. */
  evidence_lost: number;
  /** A few memories that lost a turn: what they hold now and what they lost. */
  examples: Array<{ holds: string; lost: string }>;
}
