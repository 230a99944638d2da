/**
 * POST /v1/context: a ready block of memories for a prompt. With a query the memories are
 * chosen by recall ranking; without one, pinned first, then by importance, then newest.
 * They are added in that order while they fit in `max_tokens` (one that does not fit is
 * skipped, a shorter later one may still fit). `tokens` counts the returned context with
 * the approximation of lib/tokens.ts.
 */
import { and, desc } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { countTokens } from "../lib/tokens";
import * as f from "../memories/fields";
import { filterConditions, type MemoryFilters } from "../memories/list";
import { roundImportance, withTags } from "../memories/rows";
import { rankMemories } from "./recall";

export const contextInput = z
  .object({
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
  })
  .refine((v) => !v.summarize, {
    path: ["summarize"],
    message: "summarize needs a language-model provider, which this deployment does not have yet",
  });
export type ContextInput = z.output<typeof contextInput>;

interface Picked {
  id: string;
  content: string;
  importance: number;
  memory_type: string;
  tags: string[];
  metadata: Record<string, unknown>;
}

function sourceOf(m: Picked): string {
  return typeof m.metadata.source === "string" ? m.metadata.source : `memory:${m.id}`;
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
      .select({
        id: memories.id,
        content: memories.content,
        importance: memories.importance,
        memory_type: memories.memoryType,
        tags: memories.tags,
        metadata: memories.metadata,
      })
      .from(memories)
      .where(and(...filterConditions(ctx.userId, filters)))
      .orderBy(desc(memories.pinned), desc(memories.importance), desc(memories.createdAt))
      .limit(maxMemories);
    candidates = rows.map((r) => ({
      ...r,
      importance: roundImportance(r.importance),
      metadata: withTags(r.metadata, r.tags),
    }));
  }

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
  return {
    result: { context, memories_used: picked.length, tokens },
    accessed: query ? picked.map((m) => m.id) : [],
  };
}
