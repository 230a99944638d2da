/**
 * POST /v1/context: a ready block of memories for a prompt. With a query the memories are
 * chosen by recall ranking; without one, pinned first, then by importance, then newest.
 * They are added in that order while they fit in `max_tokens` (one that does not fit is
 * skipped, a shorter later one may still fit). `tokens` counts the returned context with
 * the approximation of lib/tokens.ts.
 *
 * summarize: true merges similar memories before the budget is applied, so the block has
 * fewer, merged entries. The chosen memories are grouped greedily in their order: each one
 * not yet grouped leads a group, joined by every later ungrouped memory whose embedding has
 * cosine similarity ≥ SUMMARIZE_SIMILARITY (0.85) with the leader's (stored vectors of the
 * current embedding model; others are embedded again) and whose text is not a distinct fact
 * from any member's: texts that differ in a number, date, name or negation are never grouped,
 * as deduplication and consolidation never merge them (memories/dedup-rule.ts; a real model
 * scores such facts above 0.85, even 0.95). A group of two or more becomes one entry: its
 * content is the language-model provider's `synthesize` of the members (in order), its
 * importance the highest, its type and metadata the leader's, its tags the union (at most
 * 10), its `source` "memories:<id>,<id>…". `memories_used` counts the stored memories the
 * block draws on (a merged entry counts all its members), and with a query all of them count
 * as accessed. Nothing is written: the stored memories stay as they are.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { cosine } from "../embed/vector";
import { countTokens } from "../lib/tokens";
import { mapConcurrent } from "../llm/concurrency";
import { mayMerge } from "../memories/dedup-rule";
import * as f from "../memories/fields";
import { filterConditions, type MemoryFilters } from "../memories/list";
import { roundImportance, summaryColumns, withTags } from "../memories/rows";
import { rankMemories } from "./recall";

export const contextInput = z.object({
  query: z.string().max(32_768, "must be at most 32768 characters").optional(),
  namespace: f.scope.optional(),
  session_id: f.scope.optional(),
  agent_id: f.scope.optional(),
  max_memories: z.number().int().min(1).max(100).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  max_tokens: z.number().int().min(100).max(16_000).optional(),
  format: z.enum(["text", "structured"]).optional(),
  include_metadata: z.boolean().optional(),
  summarize: z.boolean().optional(),
});
export type ContextInput = z.output<typeof contextInput>;

export const SUMMARIZE_SIMILARITY = 0.85;
/** synthesize calls in flight at once. */
const SUMMARIZE_CONCURRENCY = 4;

interface Picked {
  id: string;
  content: string;
  importance: number;
  memory_type: string;
  tags: string[];
  metadata: Record<string, unknown>;
  namespace: string;
  pinned: boolean;
  created_at: string;
  /** Set on an entry merged by summarize: the memories it stands for. */
  members?: Picked[];
}

function sourceOf(m: Picked): string {
  if (m.members) return `memories:${m.members.map((x) => x.id).join(",")}`;
  return typeof m.metadata.source === "string" ? m.metadata.source : `memory:${m.id}`;
}

/** The stored memories an entry draws on: itself, or the members of a merged entry. */
const storedOf = (m: Picked) => m.members ?? [m];

/**
 * A used memory as the response's `memories` lists it (a client extra: the public MCP server
 * shows context as a list of memories and requires `id` and `content`). Stored values, also
 * for the members of a merged entry; no nulls, which that client refuses.
 */
function usedMemory(m: Picked) {
  return {
    id: m.id,
    content: m.content,
    importance: m.importance,
    memory_type: m.memory_type,
    namespace: m.namespace,
    tags: m.tags,
    pinned: m.pinned,
    created_at: m.created_at,
  };
}

function textLine(m: Picked, includeMetadata: boolean): string {
  const tags = m.tags.length > 0 ? ` (tags: ${m.tags.join(", ")})` : "";
  const head = `- [${m.memory_type}, importance ${m.importance}] ${m.content.trim()}${tags}`;
  if (!includeMetadata) return head;
  const { tags: _t, ...meta } = m.metadata;
  return Object.keys(meta).length > 0 ? `${head}\n  metadata: ${JSON.stringify(meta)}` : head;
}

function structuredItem(m: Picked, includeMetadata: boolean) {
  return {
    content: m.content,
    importance: m.importance,
    memory_type: m.memory_type,
    tags: m.tags,
    source: sourceOf(m),
    ...(includeMetadata ? { metadata: m.metadata } : {}),
  };
}

const HEADER = "Relevant memories:";

export async function buildContext(ctx: DomainContext, input: ContextInput) {
  const maxMemories = input.max_memories ?? input.limit ?? 10;
  const maxTokens = input.max_tokens ?? 4000;
  const format = input.format ?? "text";
  const includeMetadata = input.include_metadata ?? false;
  const filters: MemoryFilters = {
    namespace: input.namespace,
    session_id: input.session_id,
    agent_id: input.agent_id,
  };

  let candidates: Picked[];
  const query = input.query?.trim();
  if (query) {
    candidates = (await rankMemories(ctx, query, filters, maxMemories)).memories;
  } else {
    const rows = await ctx.db
      .select({ ...summaryColumns, metadata: memories.metadata, pinned: memories.pinned })
      .from(memories)
      .where(and(...filterConditions(ctx, filters)))
      .orderBy(desc(memories.pinned), desc(memories.importance), desc(memories.createdAt))
      .limit(maxMemories);
    candidates = rows.map((r) => ({
      ...r,
      importance: roundImportance(r.importance),
      metadata: withTags(r.metadata, r.tags),
      created_at: r.created_at.toISOString(),
    }));
  }

  if (input.summarize && candidates.length > 1) candidates = await summarize(ctx, candidates);

  const picked: Picked[] = [];
  let used = countTokens(format === "text" ? HEADER : '{"memories":[]}');
  for (const m of candidates) {
    const cost =
      format === "text"
        ? countTokens(textLine(m, includeMetadata)) + 1
        : countTokens(JSON.stringify(structuredItem(m, includeMetadata))) + 1;
    if (used + cost > maxTokens) continue;
    picked.push(m);
    used += cost;
  }

  const context =
    format === "text"
      ? picked.length === 0
        ? ""
        : [HEADER, ...picked.map((m) => textLine(m, includeMetadata))].join("\n")
      : { memories: picked.map((m) => structuredItem(m, includeMetadata)) };
  const tokens = countTokens(typeof context === "string" ? context : JSON.stringify(context));
  const drawnOn = picked.flatMap(storedOf);
  return {
    result: {
      context,
      memories_used: drawnOn.length,
      tokens,
      memories: drawnOn.map(usedMemory),
    },
    accessed: query ? drawnOn.map((m) => m.id) : [],
  };
}

/** Merges similar memories into one entry each (see the header). */
async function summarize(ctx: DomainContext, candidates: Picked[]): Promise<Picked[]> {
  const vectors = await vectorsOf(ctx, candidates);
  const groups: Array<{ leader: Picked; others: Picked[] }> = [];
  const grouped = new Set<number>();
  for (const [i, leader] of candidates.entries()) {
    if (grouped.has(i)) continue;
    const others: Picked[] = [];
    for (const [j, other] of candidates.entries()) {
      if (j <= i || grouped.has(j)) continue;
      if (
        cosine(vectors[i] ?? [], vectors[j] ?? []) >= SUMMARIZE_SIMILARITY &&
        [leader, ...others].every((m) => mayMerge(m.content, other.content))
      ) {
        others.push(other);
        grouped.add(j);
      }
    }
    groups.push({ leader, others });
  }
  return mapConcurrent(groups, SUMMARIZE_CONCURRENCY, async ({ leader, others }) => {
    if (others.length === 0) return leader;
    const members = [leader, ...others];
    const { content } = await ctx.llm.synthesize(members.map((m) => m.content));
    const tags = f.mergeTags(...members.map((m) => m.tags)).slice(0, f.LIMITS.tags);
    return {
      ...leader,
      content: content.trim() || leader.content,
      importance: Math.max(...members.map((m) => m.importance)),
      tags,
      metadata: { ...leader.metadata, ...(tags.length > 0 ? { tags } : {}) },
      members,
    };
  });
}

/** Each memory's vector: stored when of the current model, else embedded now. */
async function vectorsOf(ctx: DomainContext, items: Picked[]): Promise<number[][]> {
  const rows = await ctx.db
    .select({ id: memories.id, embedding: memories.embedding })
    .from(memories)
    .where(
      and(
        eq(memories.userId, ctx.userId),
        eq(memories.embeddingModel, ctx.embedder.model),
        inArray(
          memories.id,
          items.map((m) => m.id),
        ),
      ),
    );
  const stored = new Map(rows.flatMap((r) => (r.embedding ? [[r.id, r.embedding]] : [])));
  const missing = items.filter((m) => !stored.has(m.id));
  if (missing.length > 0) {
    const { vectors } = await ctx.embedder.embed(missing.map((m) => m.content));
    for (const [i, m] of missing.entries()) stored.set(m.id, vectors[i] ?? []);
  }
  return items.map((m) => stored.get(m.id) ?? []);
}
