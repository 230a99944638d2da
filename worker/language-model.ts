/**
 * The language-model provider: the tasks the service needs from a model, not a generic
 * completion API, so the offline rule-based provider can implement them too. Three
 * implementations (chosen by LLM_PROVIDER): `rules` (built in, offline, deterministic),
 * `workers-ai` (env.AI, an instruct model with JSON output) and `openai` (any
 * OpenAI-compatible chat-completions endpoint), in llm/.
 *
 * The interface stands apart from llm/ because every domain function's context carries a
 * provider (context.ts), while the implementations read the memory fields' limits and
 * migrate's classifier: kept in llm/, it would tie the lowest rooms to the highest.
 */
import type { MemoryType } from "../schema/kinds";

export interface ChatMessage {
  role: string;
  content: string;
}

/** One self-contained fact worth remembering, with the service's importance and type. */
export interface Fact {
  content: string;
  memory_type: MemoryType;
  importance: number;
}

export interface LlmProvider {
  /** Reported in logs and job results, e.g. "rules-v1" or "openai:gpt-4o-mini". */
  readonly name: string;
  /** Facts stated in a conversation (or a text given as one user message). */
  extractFacts(messages: ChatMessage[]): Promise<{ facts: Fact[]; tokens: number }>;
  /** One memory that says everything the given memories say (consolidation, summaries). */
  synthesize(memories: string[]): Promise<{ content: string; tokens: number }>;
  /**
   * Optional: whether each pair's newer fact replaces its older one (issue #45), one verdict
   * per pair in pair order, for the store that ingest and extract make (updates/plan.ts's
   * UpdateJudge). It never fails: a pair the model cannot answer gets the store's rules'
   * verdict. A provider without it (`rules`) leaves the store's rules to decide.
   */
  judgeUpdates?(pairs: UpdatePair[]): Promise<{ verdicts: JudgedPair[]; tokens: number }>;
}

/**
 * Whether `next` (a newer fact) supersedes `previous` (memories/updates: the store asks it of
 * each new memory and its nearest current ones; docs/knowledge-updates.md).
 */
export interface UpdatePair {
  next: string;
  previous: { content: string; similarity: number };
  /** The newer memory was stored as a `correction`. */
  correction: boolean;
  /**
   * The older memory was found by its fact key (the same attribute family), not by its
   * similarity, which may then be low: a lexical embedder's for two wordings of one fact.
   */
  keyed?: boolean;
}

export interface UpdateVerdict {
  replaces: boolean;
  /** 0-1: how sure; recorded in the relation's metadata. */
  score: number;
  /** A short machine-readable reason, e.g. "same-attribute:residence" or "other-person". */
  rule: string;
}

/** A verdict, and who reached it (the relation's `detected_by`; the rules when absent). */
export type JudgedPair = UpdateVerdict & { detectedBy?: string };
