/**
 * Storing memories, with deduplication: a new memory whose embedding has cosine similarity
 * ≥ 0.95 with a live memory of the same wallet and namespace is merged into that memory
 * instead of creating a record. What a merge does (documented in the README):
 *   content     the new text, unless the existing text already contains it (then unchanged):
 *               near-identical texts that differ are usually a correction ("Thursday" →
 *               "Friday"), so the newer one wins; the vector follows the content
 *   tags        union, existing first, capped at 10
 *   importance  the higher of the two
 *   metadata    existing keys, overwritten by the new memory's keys (kept as is if over 4 KB)
 *   pinned      pinned if either is
 *   expires_at  no expiry if either has none, else the later of the two
 *   type, session_id, agent_id   the existing memory's
 * An immutable memory is never changed by a merge; the store still reports it as the
 * deduplicated id. Merges write no history entry (only PATCH does).
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import type { DbOrTx } from "../db/client";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/hash";
import * as f from "./fields";
import { liveMemory } from "./rows";

export const DEDUP_THRESHOLD = 0.95;

export const storeInput = z
  .object({
    content: f.content,
    metadata: f.metadata.optional(),
    tags: f.tags.optional(),
    importance: f.importance.optional(),
    namespace: f.namespace.optional(),
    memory_type: f.memoryType.optional(),
    session_id: f.scope.nullish(),
    agent_id: f.scope.nullish(),
    expires_at: f.futureDate.nullish(),
    pinned: z.boolean().optional(),
    immutable: z.boolean().optional(),
  })
  .transform((input, ctx) => {
    const { tags: metaTags, ...metadata } = input.metadata ?? {};
    const tags = f.mergeTags(input.tags, metaTags as string[] | undefined);
    if (tags.length > f.LIMITS.tags) {
      ctx.addIssue({ code: "custom", path: ["tags"], message: `at most ${f.LIMITS.tags} tags` });
      return z.NEVER;
    }
    return {
      content: input.content,
      metadata,
      tags,
      importance: input.importance ?? 0.5,
      namespace: input.namespace ?? "default",
      memoryType: input.memory_type ?? "general",
      sessionId: input.session_id ?? null,
      agentId: input.agent_id ?? null,
      expiresAt: input.expires_at ?? null,
      pinned: input.pinned ?? false,
      immutable: input.immutable ?? false,
    };
  });

export type NewMemory = z.output<typeof storeInput>;

export interface StoredItem {
  id: string;
  deduplicated: boolean;
}

export interface StoreResult {
  items: StoredItem[];
  tokensUsed: number;
}

type DedupCandidate = {
  id: string;
  content: string;
  tags: string[];
  importance: number;
  metadata: Record<string, unknown>;
  pinned: boolean;
  immutable: boolean;
  expires_at: Date | string | null;
  similarity: number;
};

const vectorLiteral = (v: number[]) => `[${v.join(",")}]`;

/**
 * Stores memories in order, all or nothing: one embedding call for the batch, then one
 * transaction. Earlier items of a batch are visible to later ones, so near-duplicates inside
 * a batch merge too. Stores into one wallet's namespace are serialised with an advisory lock
 * so that two concurrent stores of the same text cannot both create a record.
 */
export async function storeMemories(ctx: DomainContext, inputs: NewMemory[]): Promise<StoreResult> {
  const { vectors, tokens } = await ctx.embedder.embed(inputs.map((m) => m.content));
  const hashes = await Promise.all(inputs.map((m) => sha256Hex(m.content)));
  const model = ctx.embedder.model;

  const items = await ctx.db.transaction(async (tx) => {
    const namespaces = [...new Set(inputs.map((m) => m.namespace))].sort();
    for (const ns of namespaces) {
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${ctx.userId}/${ns}`}, 0))`,
      );
    }
    const out: StoredItem[] = [];
    for (const [i, input] of inputs.entries()) {
      const vector = vectors[i];
      const hash = hashes[i];
      if (!vector || !hash) throw new ApiError("INTERNAL_ERROR", "Embedding count mismatch");
      const existing = await findDuplicate(tx, ctx.userId, input.namespace, model, vector);
      if (existing) {
        await mergeInto(tx, existing, input, vector, hash, model);
        out.push({ id: existing.id, deduplicated: true });
        continue;
      }
      const [row] = await tx
        .insert(memories)
        .values({
          userId: ctx.userId,
          namespace: input.namespace,
          content: input.content,
          metadata: input.metadata,
          tags: input.tags,
          importance: input.importance,
          memoryType: input.memoryType,
          sessionId: input.sessionId,
          agentId: input.agentId,
          pinned: input.pinned,
          immutable: input.immutable,
          expiresAt: input.expiresAt,
          embedding: vector,
          embeddingModel: model,
          contentHash: hash,
        })
        .returning({ id: memories.id });
      if (!row) throw new ApiError("INTERNAL_ERROR", "Insert returned no row");
      out.push({ id: row.id, deduplicated: false });
    }
    return out;
  });
  return { items, tokensUsed: tokens };
}

/** The most similar live memory in the namespace, if it is at or above the threshold. */
async function findDuplicate(
  tx: DbOrTx,
  userId: string,
  namespace: string,
  model: string,
  vector: number[],
): Promise<DedupCandidate | undefined> {
  const v = vectorLiteral(vector);
  const result = await tx.execute<DedupCandidate>(sql`
    SELECT id, content, tags, importance, metadata, pinned, immutable, expires_at,
           1 - (embedding <=> ${v}::vector) AS similarity
    FROM memories
    WHERE ${liveMemory(userId)} AND ${eq(memories.namespace, namespace)}
      AND ${eq(memories.embeddingModel, model)}
    ORDER BY embedding <=> ${v}::vector
    LIMIT 1`);
  const best = result.rows[0];
  return best && Number(best.similarity) >= DEDUP_THRESHOLD ? best : undefined;
}

async function mergeInto(
  tx: DbOrTx,
  existing: DedupCandidate,
  input: NewMemory,
  vector: number[],
  hash: string,
  model: string,
): Promise<void> {
  if (existing.immutable) return;
  const takeNew = !existing.content.toLowerCase().includes(input.content.toLowerCase());
  const tags = f.mergeTags(existing.tags, input.tags).slice(0, f.LIMITS.tags);
  const merged = { ...existing.metadata, ...input.metadata };
  const metadata =
    f.byteLength(JSON.stringify(merged)) <= f.LIMITS.metadataBytes ? merged : existing.metadata;
  const existingExpiry = existing.expires_at ? new Date(existing.expires_at) : null;
  const expiresAt =
    existingExpiry && input.expiresAt
      ? new Date(Math.max(existingExpiry.getTime(), input.expiresAt.getTime()))
      : null;
  await tx
    .update(memories)
    .set({
      ...(takeNew
        ? { content: input.content, embedding: vector, embeddingModel: model, contentHash: hash }
        : {}),
      tags,
      metadata,
      importance: Math.max(Number(existing.importance), input.importance),
      pinned: existing.pinned || input.pinned,
      expiresAt,
      updatedAt: sql`now()`,
    })
    .where(and(eq(memories.id, existing.id)));
}
