/**
 * POST /v1/memories/consolidate: finds clusters of near-duplicate memories (clusters.ts) and
 * merges them.
 *
 * Scope: the caller's live memories (of `namespace` / `agent_id` when given), at most the
 * CONSOLIDATE_SCOPE most recently updated ones per call, embedded with the current model.
 * Members are ordered by importance, then pinned, then newest, so each cluster's first
 * member (its survivor) is the highest-importance memory. Two memories whose texts differ in
 * a number, date, name or negation are never in one cluster, whatever their similarity
 * (memories/dedup-rule.ts): with a real model such distinct facts score 0.9 and more.
 *
 * `rule` mode, in one transaction: the survivor inherits the tags of the members it absorbs
 * (union, at most 10; an immutable survivor is left as it is), the other members are
 * soft-deleted, and a `supersedes` relation is created from the survivor to each of them.
 * Pinned and immutable members are never deleted: they stay as they are, outside the merge
 * (no relation, not counted in memories_merged), though listed in the cluster.
 * `llm` mode: the language-model provider synthesises one new memory from each cluster
 * (importance the highest of the members, tags their union, type the survivor's), with a
 * `derived_from` relation to every member; the members stay.
 * `dry_run`: clusters only, nothing changes (no `merged_into`).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { memories, relations } from "../../schema/tables";
import { markTransaction } from "../changes/writer";
import type { DomainContext } from "../context";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/hash";
import { mayMerge } from "../memories/dedup-rule";
import { softDeleteLive } from "../memories/delete";
import * as f from "../memories/fields";
import { liveMemory } from "../memories/rows";
import { type Cluster, findClusters } from "./clusters";

export const CONSOLIDATE_SCOPE = 2000;

export const consolidateInput = z.object({
  min_similarity: z
    .number()
    .min(0.5, "must be between 0.5 and 1")
    .max(1, "must be between 0.5 and 1")
    .optional(),
  mode: z.enum(["rule", "llm"]).optional(),
  namespace: f.scope.optional(),
  agent_id: f.scope.optional(),
  dry_run: z.boolean().optional(),
});
export type ConsolidateInput = z.output<typeof consolidateInput>;

type Member = {
  id: string;
  content: string;
  tags: string[];
  importance: number;
  memory_type: string;
  namespace: string;
  pinned: boolean;
  immutable: boolean;
  embedding: string;
};

const parseVector = (text: string) => Float32Array.from(JSON.parse(text) as number[]);

export async function consolidate(ctx: DomainContext, input: ConsolidateInput) {
  const minSimilarity = input.min_similarity ?? 0.85;
  const mode = input.mode ?? "rule";
  const rows = await ctx.db.execute<Member>(sql`
    SELECT id, content, tags, importance, memory_type, namespace, pinned, immutable,
           embedding::text AS embedding
    FROM (
      SELECT * FROM memories
      WHERE ${liveMemory(ctx)} AND embedding_model = ${ctx.embedder.model}
        ${input.namespace === undefined ? sql`` : sql`AND namespace = ${input.namespace}`}
        ${input.agent_id === undefined ? sql`` : sql`AND agent_id = ${input.agent_id}`}
      ORDER BY updated_at DESC
      LIMIT ${CONSOLIDATE_SCOPE}
    ) recent
    ORDER BY importance DESC, pinned DESC, created_at DESC, id`);
  const members = new Map(rows.rows.map((r) => [r.id, r]));
  // Memories of different namespaces never merge: cluster each namespace on its own.
  const byNamespace = new Map<string, Member[]>();
  for (const r of rows.rows)
    byNamespace.set(r.namespace, [...(byNamespace.get(r.namespace) ?? []), r]);
  const clusters: Cluster[] = [];
  for (const group of byNamespace.values()) {
    clusters.push(
      ...findClusters(
        group.map((m) => ({ id: m.id, content: m.content, vector: parseVector(m.embedding) })),
        minSimilarity,
        (a, b) => mayMerge(a.content, b.content),
      ),
    );
  }

  const result = {
    clusters_found: clusters.length,
    memories_merged: 0,
    memories_created: 0,
    // Client extras: the CLI reads merged_count, the TypeScript SDK `merged`, `dry_run` and
    // `tokens_used` (language-model and embedding tokens; a rule-mode merge uses none).
    merged_count: 0,
    merged: 0,
    dry_run: input.dry_run === true,
    tokens_used: 0,
    clusters: clusters.map(
      (c) =>
        ({ memory_ids: c.ids, similarity: c.similarity }) as {
          memory_ids: string[];
          similarity: number;
          merged_into?: string;
        },
    ),
  };
  if (input.dry_run || clusters.length === 0) return result;

  const pick = (ids: string[]) => ids.flatMap((id) => members.get(id) ?? []);
  if (mode === "rule") {
    await ctx.db.transaction(async (tx) => {
      await tx.execute(markTransaction(ctx.wallet, "consolidation"));
      for (const [i, cluster] of clusters.entries()) {
        const [survivor, ...rest] = pick(cluster.ids);
        if (!survivor) continue;
        const absorbed = rest.filter((m) => !m.pinned && !m.immutable);
        const out = result.clusters[i];
        if (out) out.merged_into = survivor.id;
        if (absorbed.length === 0) continue;
        if (!survivor.immutable) {
          const tags = f
            .mergeTags(survivor.tags, ...absorbed.map((m) => m.tags))
            .slice(0, f.LIMITS.tags);
          await tx
            .update(memories)
            .set({ tags, updatedAt: sql`now()` })
            .where(eq(memories.id, survivor.id));
        }
        const ids = absorbed.map((m) => m.id);
        const deleted = await softDeleteLive(
          tx,
          ctx,
          inArray(memories.id, ids),
          eq(memories.pinned, false),
        );
        if (deleted.length > 0) {
          await tx
            .insert(relations)
            .values(
              deleted.map((d) => ({
                userId: ctx.userId,
                sourceId: survivor.id,
                targetId: d.id,
                relationType: "supersedes",
              })),
            )
            .onConflictDoNothing();
        }
        result.memories_merged += deleted.length;
      }
    });
    result.merged_count = result.memories_merged;
    result.merged = result.memories_merged;
    return result;
  }

  // llm: synthesise outside the transaction (slow, remote), then write each cluster's memory
  // and its relations together.
  const provider = ctx.llm;
  const syntheses: Array<{
    cluster: number;
    content: string;
    vector: number[];
    hash: string;
    survivor: Member;
    tags: string[];
    importance: number;
  }> = [];
  for (const [i, cluster] of clusters.entries()) {
    const group = pick(cluster.ids);
    const [survivor] = group;
    if (!survivor) continue;
    const { content, tokens } = await provider.synthesize(group.map((m) => m.content));
    result.tokens_used += tokens;
    const text = content.trim().slice(0, f.LIMITS.content);
    if (!text) throw new ApiError("BAD_GATEWAY", "Language model returned an empty synthesis");
    syntheses.push({
      cluster: i,
      content: text,
      vector: [],
      hash: await sha256Hex(text),
      survivor,
      tags: f.mergeTags(...group.map((m) => m.tags)).slice(0, f.LIMITS.tags),
      importance: Math.max(...group.map((m) => Number(m.importance))),
    });
  }
  const { vectors, tokens } = await ctx.embedder.embed(syntheses.map((s) => s.content));
  result.tokens_used += tokens;
  await ctx.db.transaction(async (tx) => {
    await tx.execute(markTransaction(ctx.wallet, "consolidation"));
    for (const [j, s] of syntheses.entries()) {
      const id = crypto.randomUUID();
      await tx.insert(memories).values({
        id,
        userId: ctx.userId,
        namespace: s.survivor.namespace,
        content: s.content,
        tags: s.tags,
        importance: s.importance,
        memoryType: s.survivor.memory_type,
        metadata: { consolidated_from: clusters[s.cluster]?.ids ?? [] },
        embedding: vectors[j],
        embeddingModel: ctx.embedder.model,
        contentHash: s.hash,
        createdBy: ctx.wallet.toLowerCase(),
      });
      await tx.insert(relations).values(
        (clusters[s.cluster]?.ids ?? []).map((target) => ({
          userId: ctx.userId,
          sourceId: id,
          targetId: target,
          relationType: "derived_from",
        })),
      );
      const out = result.clusters[s.cluster];
      if (out) out.merged_into = id;
      result.memories_created += 1;
    }
  });
  return result;
}
