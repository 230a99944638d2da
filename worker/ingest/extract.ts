/**
 * POST /v1/memories/extract: facts from a conversation (or a text), stored as memories.
 *
 * Input: `messages` (1-100, each {role, content ≤ 32,768 characters}) or `text` (clients.md;
 * read as one user message, up to 100 × 32,768 characters), exactly one of them. The input is
 * cut into chunks (chunk.ts) and each chunk goes to the language-model provider (a few at
 * once); facts said in several chunks are kept once. Every fact is stored through
 * storeMemories, so it is embedded and merged into an existing memory of the wallet and
 * namespace at cosine ≥ 0.95 (the store's merge rules: immutable memories are never changed,
 * pinned ones stay pinned). Facts are stored 100 at a time, each hundred in its own
 * transaction, later ones deduplicating against earlier ones.
 *
 * Knowledge updates (issue #45): a new fact that gives a new value for the same thing as a
 * current memory replaces it (a `supersedes` relation, updates/plan.ts). The provider's model
 * judges the store's pairs when it can (LlmProvider.judgeUpdates: openai, workers-ai; the
 * store's rules answer for what it does not), else the store's rules do (`rules`).
 * `detect_updates: false` (default true) stores every fact without looking for what it
 * replaces.
 *
 * Result: `memory_ids` one per fact in fact order (new and deduplicated ids; two facts merged
 * into one memory give its id twice), `facts_extracted` = facts_stored (new memories) +
 * facts_deduplicated, `tokens_used` language model (extraction and update judgement) plus
 * embeddings.
 */
import { z } from "zod";
import type { DomainContext } from "../context";
import type { ChatMessage, Fact, LlmProvider } from "../language-model";
import { mapConcurrent } from "../llm/concurrency";
import { cutAtWord, wordKey } from "../llm/sentences";
import * as f from "../memories/fields";
import { type StoredItem, storeMemories } from "../memories/store";
import type { NewMemory } from "../memories/store-input";
import type { UpdateJudge } from "../memories/updates/plan";
import { chunkConversation } from "./chunk";

export const MAX_MESSAGES = 100;
export const MAX_MESSAGE_CHARS = 32_768;
/** A text is at most what 100 messages can hold. */
export const MAX_TEXT_CHARS = MAX_MESSAGES * MAX_MESSAGE_CHARS;
/** Chunks sent to the provider at once. */
const CHUNK_CONCURRENCY = 4;
/** Facts per storeMemories call (one transaction, one embedding request). */
const STORE_BATCH = 100;

const message = z.object({
  role: z.string().max(255, "must be at most 255 characters"),
  content: z.string().max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS} characters`),
});

/** The fields extract and ingest share: the conversation or text, and where to store. */
export const conversationFields = {
  messages: z
    .array(message)
    .min(1, "at least 1 message")
    .max(MAX_MESSAGES, `at most ${MAX_MESSAGES} messages`)
    .optional(),
  text: z
    .string()
    .max(MAX_TEXT_CHARS, `must be at most ${MAX_TEXT_CHARS} characters`)
    .refine((t) => t.trim() !== "", "must not be empty")
    .optional(),
  namespace: f.namespace.optional(),
  session_id: f.scope.nullish(),
  agent_id: f.scope.nullish(),
  detect_updates: z
    .boolean()
    .optional()
    .describe(
      "Default true: a stored fact that gives a new value for the same thing as a current memory (same person, same thing, now) replaces it, with a `supersedes` relation whose metadata says what detected it (`detected_by`: the language model, or `rules`) and its `score`. False: facts are stored without looking for what they replace",
    ),
};

/** Exactly one of `messages` and `text` (422 otherwise, with the reason on `messages`). */
export function exactlyOneSource(
  v: { messages?: unknown; text?: unknown },
  ctx: z.RefinementCtx,
): void {
  const has = (x: unknown) => x !== undefined && x !== null;
  if (!has(v.messages) && !has(v.text)) {
    ctx.addIssue({ code: "custom", path: ["messages"], message: "provide messages or text" });
  } else if (has(v.messages) && has(v.text)) {
    ctx.addIssue({
      code: "custom",
      path: ["messages"],
      message: "provide either messages or text, not both",
    });
  }
}

export const extractInput = z.object(conversationFields).superRefine(exactlyOneSource);
export type ExtractInput = z.output<typeof extractInput>;

/** Where facts are stored, and whether each may replace a current memory. */
export interface Scope {
  namespace: string;
  sessionId: string | null;
  agentId: string | null;
  detectUpdates: boolean;
}

export function scopeOf(input: {
  namespace?: string;
  session_id?: string | null;
  agent_id?: string | null;
  detect_updates?: boolean;
}): Scope {
  return {
    namespace: input.namespace ?? "default",
    sessionId: input.session_id ?? null,
    agentId: input.agent_id ?? null,
    detectUpdates: input.detect_updates ?? true,
  };
}

/** The input as a conversation: `text` is one user message. */
export function conversationOf(input: { messages?: ChatMessage[]; text?: string }): ChatMessage[] {
  return input.messages ?? [{ role: "user", content: input.text ?? "" }];
}

/** Facts of a whole conversation, chunk by chunk; a fact said twice is kept once. */
export async function extractAll(
  llm: LlmProvider,
  conversation: ChatMessage[],
): Promise<{ facts: Fact[]; tokens: number }> {
  const chunks = chunkConversation(conversation);
  const results = await mapConcurrent(chunks, CHUNK_CONCURRENCY, (chunk) =>
    llm.extractFacts(chunk),
  );
  const facts: Fact[] = [];
  const seen = new Set<string>();
  let tokens = 0;
  for (const result of results) {
    tokens += result.tokens;
    for (const fact of result.facts) {
      // Guards for every provider: no NUL (Postgres text cannot hold it), within the limit.
      const content = cutAtWord(fact.content.replaceAll("\u0000", "").trim(), f.LIMITS.content);
      const key = wordKey(content);
      if (key === "" || seen.has(key)) continue;
      seen.add(key);
      facts.push({ ...fact, content });
    }
  }
  return { facts, tokens };
}

/**
 * The store's judge of knowledge updates: the provider's model when it has one
 * (LlmProvider.judgeUpdates), else none (the store's rules). `tokens` counts what it spent.
 */
export function updateJudgeOf(llm: LlmProvider): { judge?: UpdateJudge; tokens: () => number } {
  let tokens = 0;
  if (!llm.judgeUpdates) return { tokens: () => tokens };
  const judgeUpdates = llm.judgeUpdates.bind(llm);
  return {
    judge: async (pairs) => {
      const judged = await judgeUpdates(pairs);
      tokens += judged.tokens;
      return judged.verdicts;
    },
    tokens: () => tokens,
  };
}

/** What storing facts returns: one item per fact, and the tokens it spent. */
export interface StoredFacts {
  items: StoredItem[];
  /** Embedding tokens. */
  tokensUsed: number;
  /** Language-model tokens of the update judgement. */
  modelTokens: number;
}

/** Stores facts as memories in `scope` (see the header); returns one item per fact. */
export async function storeFacts(
  ctx: DomainContext,
  facts: Fact[],
  scope: Scope,
): Promise<StoredFacts> {
  const items: StoredItem[] = [];
  let tokensUsed = 0;
  const { judge, tokens } = updateJudgeOf(ctx.llm);
  for (let start = 0; start < facts.length; start += STORE_BATCH) {
    const batch = facts.slice(start, start + STORE_BATCH).map(
      (fact): NewMemory => ({
        content: fact.content,
        metadata: {},
        tags: [],
        importance: fact.importance,
        namespace: scope.namespace,
        memoryType: fact.memory_type,
        sessionId: scope.sessionId,
        agentId: scope.agentId,
        expiresAt: null,
        pinned: false,
        immutable: false,
        occurredAt: null,
        supersedes: [],
        detectUpdates: scope.detectUpdates,
        ref: null,
      }),
    );
    const result = await storeMemories(ctx, batch, judge ? { judge } : {});
    items.push(...result.items);
    tokensUsed += result.tokensUsed;
  }
  return { items, tokensUsed, modelTokens: tokens() };
}

export function countItems(items: StoredItem[]) {
  const deduplicated = items.filter((i) => i.deduplicated).length;
  return {
    memory_ids: items.map((i) => i.id),
    facts_extracted: items.length,
    facts_stored: items.length - deduplicated,
    facts_deduplicated: deduplicated,
  };
}

/**
 * How facts are stored: storeFacts for a request; a background job passes one that records
 * what it stored, so that a retry stores nothing twice (worker/jobs/facts.ts).
 */
export type FactStore = (ctx: DomainContext, facts: Fact[], scope: Scope) => Promise<StoredFacts>;

export async function extractMemories(
  ctx: DomainContext,
  input: ExtractInput,
  store: FactStore = storeFacts,
) {
  const { facts, tokens } = await extractAll(ctx.llm, conversationOf(input));
  const { items, tokensUsed, modelTokens } = await store(ctx, facts, scopeOf(input));
  return { ...countItems(items), tokens_used: tokens + modelTokens + tokensUsed };
}
