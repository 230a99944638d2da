/**
 * POST /v1/ingest: a conversation (`messages`) or a document (`text`), exactly one of them,
 * else 422 VALIDATION_ERROR. Extraction, chunking (4,000 characters, chunk.ts) and storing
 * with deduplication are extract's (extract.ts).
 *
 * auto_relate (default false): each NEW memory of this ingest is linked to the live memories
 * of the wallet in the same namespace (and of the same embedding model) that are similar to
 * it: of its AUTO_RELATE_MAX (3) nearest, those with cosine similarity ≥ 0.75. There is no
 * upper bound: a new memory ≥ 0.95 similar to an existing one was kept apart from it by
 * deduplication (memories/dedup-rule.ts: the texts differ in a number, date, name or
 * negation), so it is a distinct fact about the same thing, as related as memories get.
 * Memories created by this same ingest are not candidates (they are not "existing");
 * memories a fact was merged into are. One `related_to` relation per pair, new → existing,
 * with metadata {auto_related: true, similarity}; a relation that already
 * exists is skipped and not counted. Relations are written after the memories, so a failure
 * there leaves the memories stored without them.
 *
 * detect_updates (default true): a new fact may replace a current memory, as in extract.
 *
 * Response 201: extract's counts, `relations_created`, `tokens_used` (language-model tokens
 * only, as the spec says: extraction and update judgement) and `memories_created` (=
 * facts_stored, a field the clients read).
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import { memories, relations } from "../../schema/tables";
import type { DomainContext } from "../context";
import { nearestStatement } from "../memories/nearest";
import { liveMemory } from "../memories/rows";
import {
  conversationFields,
  conversationOf,
  countItems,
  exactlyOneSource,
  extractAll,
  type FactStore,
  scopeOf,
  storeFacts,
} from "./extract";

export const AUTO_RELATE_MIN = 0.75;
export const AUTO_RELATE_MAX = 3;

export const ingestInput = z
  .object({ ...conversationFields, auto_relate: z.boolean().optional() })
  .superRefine(exactlyOneSource);
export type IngestInput = z.output<typeof ingestInput>;

export async function ingest(
  ctx: DomainContext,
  input: IngestInput,
  store: FactStore = storeFacts,
) {
  const scope = scopeOf(input);
  const { facts, tokens } = await extractAll(ctx.llm, conversationOf(input));
  const { items, modelTokens } = await store(ctx, facts, scope);
  const created = [...new Set(items.filter((i) => !i.deduplicated).map((i) => i.id))];
  const relationsCreated =
    input.auto_relate && created.length > 0 ? await autoRelate(ctx, created, scope.namespace) : 0;
  const counts = countItems(items);
  return {
    ...counts,
    relations_created: relationsCreated,
    tokens_used: tokens + modelTokens,
    memories_created: counts.facts_stored,
  };
}

type Pair = { source_id: string; target_id: string; similarity: number | string };

/** Creates the auto_relate relations of the header; returns how many were created. */
export async function autoRelate(
  ctx: DomainContext,
  newIds: string[],
  namespace: string,
): Promise<number> {
  const ids = sql`${sql.param(newIds)}::uuid[]`;
  // The new memories are the probes; each relates to its nearest others (nearest.ts).
  const pairs = await ctx.db.execute<Pair>(
    nearestStatement({
      userId: ctx.userId,
      model: ctx.embedder.model,
      probes: sql`
        SELECT row_number() OVER (ORDER BY id)::int AS i, id, namespace AS ns, embedding AS v
        FROM memories
        WHERE ${liveMemory(ctx)} AND id = ANY(${ids}) AND namespace = ${namespace}
          AND embedding_model = ${ctx.embedder.model}`,
      k: AUTO_RELATE_MAX,
      minSimilarity: AUTO_RELATE_MIN,
      columns: sql`(SELECT id FROM q WHERE q.i = ranked.i) AS source_id, m.id AS target_id`,
      where: sql`NOT (${memories.id} = ANY(${ids}))`,
    }),
  );
  if (pairs.rows.length === 0) return 0;
  const inserted = await ctx.db
    .insert(relations)
    .values(
      pairs.rows.map((p) => ({
        userId: ctx.userId,
        sourceId: p.source_id,
        targetId: p.target_id,
        relationType: "related_to",
        metadata: {
          auto_related: true,
          similarity: Math.round(Number(p.similarity) * 10_000) / 10_000,
        },
      })),
    )
    .onConflictDoNothing()
    .returning({ id: relations.id });
  return inserted.length;
}
