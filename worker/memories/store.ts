/**
 * Storing memories, with deduplication: a new memory whose embedding has cosine similarity
 * ≥ 0.95 with a live memory of the same wallet and namespace is merged into that memory
 * instead of creating a record. What a merge does (documented in docs/memories.md):
 *   content     never loses either text (dedup-rule.ts): texts that differ in a number, date,
 *               name or negation do not merge at all; otherwise the existing text when it
 *               contains the new one, the new one when it contains the existing one, else
 *               both (re-embedded); the vector follows the content
 *   tags        union, existing first, capped at 10
 *   importance  the higher of the two
 *   metadata    existing keys, overwritten by the new memory's keys (kept as is if over 4 KB)
 *   pinned      pinned if either is
 *   expires_at  no expiry if either has none, else the later of the two
 *   type, session_id, agent_id   the existing memory's
 * An immutable memory is never changed by a merge; the store still reports it as the
 * deduplicated id. Merges write no history entry (only PATCH does).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/hash";
import { indexBacklog } from "./ann";
import { mergeText } from "./dedup-rule";
import { insertRows } from "./insert";
import { foldLiveCounts } from "./live-count";
import { type Draft, embedJoined, existingDraft, merge, type Nearest } from "./merge";
import { nearestStatement, probesOf } from "./nearest";
import { type MemoryJson, type MemoryRecord, memoryColumns, toMemory } from "./rows";
import type { NewMemory } from "./store-input";

export const DEDUP_THRESHOLD = 0.95;
const DEDUP_EF_SEARCH = 20;

export interface StoredItem {
  id: string;
  deduplicated: boolean;
}

export interface StoreResult {
  items: StoredItem[];
  tokensUsed: number;
  /** Each item's memory as the transaction left it, in item order; empty unless `withMemories`. */
  memories: MemoryJson[];
}

export interface StoreOptions {
  /**
   * Read the stored memories back inside the transaction (store and batch store answer with
   * them). Off for extract, ingest and import, which answer with ids only.
   */
  withMemories?: boolean;
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/**
 * Stores memories in order, all or nothing, in a fixed number of round trips whatever the
 * batch size: one embedding call, then one transaction that locks the namespaces, finds each
 * item's nearest live memory in one query, merges in memory, inserts the new rows in one
 * statement and updates the merged ones. Later items of a batch merge into earlier ones too.
 * Stores into one wallet's namespace are serialised with an advisory lock so that two
 * concurrent stores of the same text cannot both create a record.
 */
export async function storeMemories(
  ctx: DomainContext,
  inputs: NewMemory[],
  options: StoreOptions = {},
): Promise<StoreResult> {
  const embed = () => ctx.embedder.embed(inputs.map((m) => m.content));
  const { vectors, tokens } = await (ctx.timings?.measure("embed", embed) ?? embed());
  if (vectors.length !== inputs.length) {
    throw new ApiError("INTERNAL_ERROR", "Embedding count mismatch");
  }
  const hashes = await Promise.all(inputs.map((m) => sha256Hex(m.content)));
  const model = ctx.embedder.model;
  let extraTokens = 0;

  const { items, stored } = await ctx.db.transaction(async (tx) => {
    const lockKeys = [...new Set(inputs.map((m) => `${ctx.userId}/${m.namespace}`))].sort();
    // With the namespace locks, a shallow HNSW search for this transaction: a duplicate to
    // merge (cosine ≥ 0.95) is next to its probe in the graph, and recall's depth (ef_search
    // 100, migration 0002) made each of a batch's probes several times dearer.
    await tx.execute(sql`
      SELECT set_config('hnsw.ef_search', ${String(DEDUP_EF_SEARCH)}, true),
        pg_advisory_xact_lock(hashtextextended(k, 0))
      FROM (SELECT unnest(${sql.param(lockKeys)}::text[]) AS k ORDER BY 1) AS keys`);

    // Each item's nearest live memory of its namespace at the merge threshold or above
    // (nearest.ts: exact for small scopes and backlogs, the HNSW shard above).
    const findNearest = () =>
      tx.execute<Nearest>(
        nearestStatement({
          userId: ctx.userId,
          model,
          probes: probesOf(
            inputs.map((m) => m.namespace),
            vectors,
            hashes,
          ),
          sameText: true,
          k: 1,
          minSimilarity: DEDUP_THRESHOLD,
          columns: sql`m.id, m.content, m.tags, m.importance, m.metadata, m.pinned, m.immutable,
            m.expires_at`,
        }),
      );
    const nearest = await (ctx.timings?.measure("dedup", findNearest) ?? findNearest());
    const nearestOf = new Map(nearest.rows.map((r) => [Number(r.i), r]));

    const drafts = new Map<string, Draft>();
    const out: StoredItem[] = [];
    for (const [i, input] of inputs.entries()) {
      const vector = vectors[i] ?? [];
      const hash = hashes[i] ?? "";
      let target: Draft | undefined;
      let best = DEDUP_THRESHOLD;
      const fromDb = nearestOf.get(i);
      if (
        fromDb &&
        Number(fromDb.similarity) >= best &&
        !drafts.has(fromDb.id) &&
        mergeText(fromDb.content, input.content)
      ) {
        best = Number(fromDb.similarity);
        target = existingDraft(fromDb, input.namespace);
      }
      // Memories this batch already created or changed: compare with their current vectors.
      for (const draft of drafts.values()) {
        if (draft.namespace !== input.namespace) continue;
        // A merged-into row that kept its text has no vector here: its similarity to this
        // item is the one the nearest-memory query measured (when it was this item's nearest).
        const similarity =
          draft.vector.length > 0
            ? dot(draft.vector, vector)
            : fromDb?.id === draft.id
              ? Number(fromDb.similarity)
              : 0;
        if (similarity >= best && mergeText(draft.content, input.content)) {
          best = similarity;
          target = draft;
        }
      }
      if (target) {
        drafts.set(target.id, target);
        merge(target, input, vector, hash);
        out.push({ id: target.id, deduplicated: true });
        continue;
      }
      const draft: Draft = {
        id: crypto.randomUUID(),
        isNew: true,
        dirty: true,
        namespace: input.namespace,
        content: input.content,
        vector,
        hash,
        tags: input.tags,
        metadata: input.metadata,
        importance: input.importance,
        pinned: input.pinned,
        immutable: input.immutable,
        expiresAt: input.expiresAt,
        input,
      };
      drafts.set(draft.id, draft);
      out.push({ id: draft.id, deduplicated: false });
    }

    extraTokens = await embedJoined(ctx, [...drafts.values()]);
    const created = [...drafts.values()].filter((d) => d.isNew);
    const writing = performance.now();
    // The written rows come back from the writes themselves (RETURNING): reading them again
    // after was another round trip and another pass over the batch's rows.
    const written: MemoryRecord[] = [];
    const returning = options.withMemories ? memoryColumns : { id: memories.id };
    if (created.length > 0) {
      const inserted = await insertRows(
        tx,
        ctx.userId,
        model,
        created.map((d) => ({
          id: d.id,
          namespace: d.namespace,
          content: d.content,
          metadata: d.metadata,
          tags: d.tags,
          importance: d.importance,
          memoryType: d.input?.memoryType ?? "general",
          sessionId: d.input?.sessionId ?? null,
          agentId: d.input?.agentId ?? null,
          pinned: d.pinned,
          immutable: d.immutable,
          expiresAt: d.expiresAt,
          vector: d.vector,
          hash: d.hash,
        })),
        returning,
      );
      written.push(...(inserted as unknown as MemoryRecord[]));
    }
    for (const d of drafts.values()) {
      if (d.isNew || !d.dirty) continue;
      const updated = await tx
        .update(memories)
        .set({
          ...(d.vector.length > 0
            ? {
                content: d.content,
                embedding: d.vector,
                embeddingModel: model,
                contentHash: d.hash,
              }
            : {}),
          tags: d.tags,
          metadata: d.metadata,
          importance: d.importance,
          pinned: d.pinned,
          expiresAt: d.expiresAt,
          updatedAt: sql`now()`,
        })
        .where(eq(memories.id, d.id))
        .returning(returning);
      written.push(...(updated as MemoryRecord[]));
    }
    ctx.timings?.add("write", performance.now() - writing);
    if (!options.withMemories) return { items: out, stored: [] };
    // Merged into without a change (an immutable memory): read as it is.
    const have = new Set(written.map((r) => r.id));
    const unchanged = [...new Set(out.map((o) => o.id))].filter((id) => !have.has(id));
    if (unchanged.length > 0) {
      const rows = await tx
        .select(memoryColumns)
        .from(memories)
        .where(and(eq(memories.userId, ctx.userId), inArray(memories.id, unchanged)));
      written.push(...(rows as MemoryRecord[]));
    }
    const byId = new Map(written.map((r) => [r.id, toMemory(r)]));
    return { items: out, stored: out.flatMap((o) => byId.get(o.id) ?? []) };
  });
  // New rows are outside the HNSW index: the indexer takes them after the response, if the
  // wallet is large enough to be searched through it (ann.ts).
  if (items.some((item) => !item.deduplicated)) {
    ctx.afterwards(`ann:${ctx.userId}`, (db) => indexBacklog(db, ctx.userId));
    // Each store appends a row of change to memory_counts: fold them when they pile up.
    ctx.afterwards(`counts:${ctx.userId}`, (db) => foldLiveCounts(db, ctx.userId));
  }
  return { items, tokensUsed: tokens + extraTokens, memories: stored };
}
