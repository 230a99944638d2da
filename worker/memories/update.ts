/**
 * Updating memories (PATCH). Each update is one statement that also writes the history
 * entry, so a memory never changes without its record. A content change is re-embedded
 * (the tsvector follows by itself, being generated) and is not deduplicated.
 *
 * Nothing is embedded for an update that would be refused: a PATCH with new content asks
 * first whether its memory may be written (write-refusal.ts; one statement), and a batch
 * update asks once for all its items, then embeds only the contents of those that may. The
 * write statement checks again, so a memory deleted or made immutable meanwhile is still a
 * 404 or a 409 and is not written. Through a grant, `pinned` and `immutable` are the owner's
 * (as the pin routes are): a PATCH or a batch item that sends either is a 403 before anything
 * is read.
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import { memories, memoryHistory } from "../../schema/tables";
import { writtenBy } from "../changes/writer";
import type { DomainContext } from "../context";
import { ApiError, immutableConflict } from "../errors";
import { sha256Hex } from "../lib/hash";
import { OWNER_ONLY, ownerOnlyRefusal } from "../sharing/owner-only";
import { grantedNamespace } from "../sharing/scope";
import * as f from "./fields";
import { liveMemory, type MemoryJson, memoryColumns, recordFromRow, toMemory } from "./rows";
import { replacementColumns } from "./updates/current";
import { factKey } from "./updates/detect";
import { refusedWrite, writeRefusalOf, writeRefusalsOf } from "./write-refusal";

const UPDATABLE = [
  "content",
  "metadata",
  "tags",
  "importance",
  "memory_type",
  "namespace",
  "session_id",
  "agent_id",
  "pinned",
  "expires_at",
  "immutable",
] as const;

export const updateFields = z.object({
  content: f.content.optional(),
  metadata: f.metadata.optional(),
  tags: f.tags.optional(),
  importance: f.importance.optional(),
  memory_type: f.memoryType.optional(),
  namespace: f.namespace.optional(),
  session_id: f.scope.nullable().optional(),
  agent_id: f.scope.nullable().optional(),
  pinned: z.boolean().optional(),
  expires_at: f.futureDate.nullable().optional(),
  immutable: z.boolean().optional(),
});

const atLeastOne = (v: Record<string, unknown>) => UPDATABLE.some((k) => v[k] !== undefined);
const EMPTY_UPDATE = `at least one of ${UPDATABLE.join(", ")} is required`;

export const updateInput = updateFields.refine(atLeastOne, EMPTY_UPDATE);
export type UpdateInput = z.output<typeof updateFields>;

export const batchUpdateItem = updateFields.extend({ id: f.uuid }).refine(atLeastOne, EMPTY_UPDATE);

/**
 * Embeds the new contents of a set of updates in one call: content → vector, and the
 * embedding tokens it took.
 */
export async function embedContents(
  ctx: DomainContext,
  contents: string[],
): Promise<{ vectors: Map<string, number[]>; tokens: number }> {
  const unique = [...new Set(contents)];
  const out = new Map<string, number[]>();
  if (unique.length === 0) return { vectors: out, tokens: 0 };
  const { vectors, tokens } = await ctx.embedder.embed(unique);
  unique.forEach((text, i) => {
    const v = vectors[i];
    if (v) out.set(text, v);
  });
  return { vectors: out, tokens };
}

/** Through a grant, the 403 of a patch that sends an owner-only field (pinned, immutable). */
const ownerOnlyOf = (ctx: DomainContext, patch: UpdateInput) =>
  ownerOnlyRefusal(
    ctx,
    OWNER_ONLY.filter((k) => patch[k] !== undefined),
  );

/**
 * One PATCH. Without new content: the write statement alone (one round trip). With new
 * content: one statement asking whether the memory may be written, then the embedding, then
 * the write statement.
 */
export async function updateMemory(ctx: DomainContext, id: string, patch: UpdateInput) {
  const ownerOnly = ownerOnlyOf(ctx, patch);
  if (ownerOnly) throw ownerOnly;
  if (patch.content === undefined) return writeUpdate(ctx, id, patch);
  // A refused PATCH gives its charge back: an embedding made first would be free work.
  const refusal = await writeRefusalOf(ctx, id, patch.namespace);
  if (refusal) throw refusal;
  return writeUpdate(ctx, id, patch, (await embedContents(ctx, [patch.content])).vectors);
}

/**
 * One update in one statement (one round trip, one implicit transaction): lock the caller's
 * live memory, update it unless it is immutable, and write its history entry. Before, BEGIN, a
 * SELECT … FOR UPDATE, the UPDATE, the history INSERT and COMMIT were five round trips. New
 * content must be in `vectors`, embedded.
 */
async function writeUpdate(
  ctx: DomainContext,
  id: string,
  patch: UpdateInput,
  vectors?: Map<string, number[]>,
) {
  const set: Partial<typeof memories.$inferInsert> = {};
  const changes: Record<string, unknown> = {};
  if (patch.content !== undefined) {
    const vector = vectors?.get(patch.content);
    if (!vector) throw new ApiError("INTERNAL_ERROR", "Embedding missing for updated content");
    set.content = patch.content;
    set.embedding = vector;
    set.embeddingModel = ctx.embedder.model;
    set.contentHash = await sha256Hex(patch.content);
    set.factKey = factKey(patch.content);
    changes.content = patch.content;
  }
  // History holds the changed fields only: tags count when sent, or when a metadata
  // replacement actually changed them (not `tags: []` on every metadata PATCH), which only
  // the locked row can tell (`tagsIfChanged`).
  let tagsIfChanged: string[] | undefined;
  if (patch.metadata !== undefined) {
    // metadata replaces entirely, its tags included; top-level tags win when both are sent.
    const { tags: metaTags, ...metadata } = patch.metadata;
    set.metadata = metadata;
    changes.metadata = patch.metadata;
    set.tags = f.mergeTags(patch.tags ?? (metaTags as string[] | undefined) ?? []);
    if (patch.tags === undefined) tagsIfChanged = set.tags;
  } else if (patch.tags !== undefined) {
    set.tags = f.mergeTags(patch.tags);
  }
  if (patch.tags !== undefined) changes.tags = set.tags;
  if (patch.importance !== undefined) set.importance = changes.importance = patch.importance;
  if (patch.memory_type !== undefined) set.memoryType = changes.memory_type = patch.memory_type;
  if (patch.namespace !== undefined) set.namespace = changes.namespace = patch.namespace;
  if (patch.session_id !== undefined) set.sessionId = changes.session_id = patch.session_id;
  if (patch.agent_id !== undefined) set.agentId = changes.agent_id = patch.agent_id;
  if (patch.pinned !== undefined) set.pinned = changes.pinned = patch.pinned;
  if (patch.immutable !== undefined) set.immutable = changes.immutable = patch.immutable;
  if (patch.expires_at !== undefined) {
    set.expiresAt = patch.expires_at;
    changes.expires_at = patch.expires_at ? patch.expires_at.toISOString() : null;
  }

  const update = ctx.db
    .update(memories)
    .set({ ...set, updatedAt: sql`now()` })
    .where(
      sql`${memories.id} IN (SELECT id FROM cur WHERE NOT immutable) AND ${writtenBy(ctx.wallet)}`,
    )
    .returning(memoryColumns);
  const tagChange = tagsIfChanged
    ? sql`CASE WHEN (SELECT tags FROM cur) IS DISTINCT FROM ${sql.param(tagsIfChanged)}::text[]
        THEN jsonb_build_object('tags', ${JSON.stringify(tagsIfChanged)}::jsonb)
        ELSE '{}'::jsonb END`
    : sql`'{}'::jsonb`;
  const result = await ctx.db.execute<Record<string, unknown>>(sql`
    WITH cur AS (
      SELECT ${memories.id} AS id, ${memories.immutable} AS immutable, ${memories.tags} AS tags
      FROM ${memories} WHERE ${memories.id} = ${id} AND ${liveMemory(ctx)}
        AND ${patch.namespace === undefined ? sql`true` : grantedNamespace(ctx, sql`${patch.namespace}::text`)}
      FOR UPDATE
    ),
    upd AS (${update.getSQL()}),
    hist AS (
      INSERT INTO ${memoryHistory} (memory_id, user_id, changes, created_by)
      SELECT upd.id, ${ctx.userId}::uuid, ${JSON.stringify(changes)}::jsonb || ${tagChange},
        ${ctx.wallet.toLowerCase()}::text
      FROM upd
    )
    SELECT (SELECT immutable FROM cur) AS locked, upd.*,
      ${replacementColumns(sql.raw("upd.id"), ctx)}
    FROM (SELECT 1) one LEFT JOIN upd ON true`);
  const row = result.rows[0];
  if (row?.locked === true) throw immutableConflict();
  if (!row?.id) throw await refusedWrite(ctx, id, patch.namespace);
  return toMemory(recordFromRow(row));
}

export interface BatchItemError {
  id: string | null;
  status: number;
  message: string;
}

/** One item's outcome, in item order (the public SDKs' `results`). */
export type BatchItemResult =
  | { id: string; updated: true }
  | { id: string | null; updated: false; status: number; error: string };

/** A batch item: its update, or its failure (422, 403 owner-only, refused). */
type BatchItem = { id: string; patch: UpdateInput } | { error: BatchItemError };

/** The item as validated, or its 422, or through a grant its owner-only 403. */
function batchItemOf(ctx: DomainContext, raw: unknown): BatchItem {
  const result = batchUpdateItem.safeParse(raw);
  if (!result.success) {
    const rawId = typeof raw === "object" && raw !== null && "id" in raw ? raw.id : null;
    const issue = result.error.issues[0];
    return {
      error: {
        id: typeof rawId === "string" ? rawId : null,
        status: 422,
        message: issue ? `${issue.path.join(".") || "(item)"}: ${issue.message}` : "Invalid update",
      },
    };
  }
  const { id, ...patch } = result.data;
  const ownerOnly = ownerOnlyOf(ctx, patch);
  return ownerOnly
    ? { error: { id, status: ownerOnly.status, message: ownerOnly.message } }
    : { id, patch };
}

/**
 * Batch update: each item is validated and applied on its own (its own statement), so a
 * failing item is reported in `errors` and the rest still run. When any item carries new
 * content, one statement first asks which items may be written; the others fail there, and
 * only the contents of those that may are embedded (in one call). Beside the spec's `updated`
 * and `errors`, the public clients read `memories` (the updated memories, in item order),
 * `results` (every item's outcome), `failed` (how many failed) and `tokens_used` (embedding
 * tokens of the new contents).
 */
export async function updateMany(ctx: DomainContext, updates: unknown[]) {
  const items = updates.map((raw) => batchItemOf(ctx, raw));
  const pending = items.flatMap((item, index) => ("patch" in item ? [{ ...item, index }] : []));
  if (pending.some((p) => p.patch.content !== undefined)) {
    const writes = pending.map((p) => ({ id: p.id, target: p.patch.namespace }));
    const refusals = await writeRefusalsOf(ctx, writes);
    refusals.forEach((refusal, k) => {
      const p = pending[k];
      if (refusal && p) items[p.index] = { error: { id: p.id, ...statusOf(refusal) } };
    });
  }
  const contents = items.flatMap((item) =>
    "patch" in item && item.patch.content !== undefined ? [item.patch.content] : [],
  );
  const embedded = await embedContents(ctx, contents);
  const updatedMemories: MemoryJson[] = [];
  const errors: BatchItemError[] = [];
  const results: BatchItemResult[] = [];
  const fail = (error: BatchItemError) => {
    errors.push(error);
    results.push({ id: error.id, updated: false, status: error.status, error: error.message });
  };
  for (const item of items) {
    if ("error" in item) {
      fail(item.error);
      continue;
    }
    const { id, patch } = item;
    try {
      updatedMemories.push(await writeUpdate(ctx, id, patch, embedded.vectors));
      results.push({ id, updated: true });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      fail({ id, ...statusOf(err) });
    }
  }
  return {
    updated: updatedMemories.length,
    errors,
    memories: updatedMemories,
    results,
    failed: errors.length,
    tokens_used: embedded.tokens,
  };
}

const statusOf = (err: ApiError) => ({ status: err.status, message: err.message });
