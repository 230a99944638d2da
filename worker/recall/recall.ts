/**
 * Recall. When at most EXACT_SCAN_MAX memories pass the filters, every one of them is scored
 * (scoring.ts), so the ranking is exactly a brute-force ranking. Above that, candidates come
 * from the HNSW index (nearest vectors), the full-text index (any query lexeme) and the most
 * accessed memories (access_boost can double a score), each filtered in SQL before its
 * LIMIT so filters never cause short pages; the candidates are then scored exactly.
 */
import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { memories, relations } from "../../schema/tables";
import type { DomainContext } from "../context";
import * as f from "../memories/fields";
import { filterConditions, type MemoryFilters } from "../memories/list";
import { EXACT_SCAN_MAX } from "../memories/nearest";
import { isLive, roundImportance, withTags } from "../memories/rows";
import { type Signals, scoreMemory } from "./scoring";

export const recallInput = z.object({
  query: z
    .string()
    .max(32_768, "must be at most 32768 characters")
    .refine((s) => s.trim().length > 0, "must not be empty"),
  limit: z.number().int().min(1).max(100).optional(),
  min_similarity: z.number().min(0).max(1).optional(),
  namespace: f.scope.optional(),
  session_id: f.scope.optional(),
  agent_id: f.scope.optional(),
  include_relations: z.boolean().optional(),
  filters: z
    .object({
      tags: f.tags.optional(),
      after: f.isoDate.optional(),
      before: f.isoDate.optional(),
      memory_type: f.memoryType.optional(),
      pinned: z.boolean().optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  since: f.isoDate.optional(),
  until: f.isoDate.optional(),
});
export type RecallInput = z.output<typeof recallInput>;

/** How many candidates each index contributes, per requested result. */
const CANDIDATES_PER_RESULT = 5;
const MIN_CANDIDATES = 50;
const MAX_CANDIDATES = 500;
/** Most full-text matches ranked for keyword candidates (see the kw CTE). */
const KEYWORD_SCAN_MAX = 2000;
/** Query lexemes used for keyword matching (a 32 KB query would otherwise OR thousands). */
const MAX_QUERY_LEXEMES = 64;

/** The signals of one candidate: narrow rows, so thousands can be scored cheaply. */
type CandidateRow = {
  id: string;
  importance: number;
  memory_type: string;
  pinned: boolean;
  access_count: number;
  created_at: Date | string;
  accessed_at: Date | string;
  vector_sim: number | string | null;
  keyword: number | string | null;
  relation_count: number | string;
};

export interface RecalledMemory {
  id: string;
  content: string;
  similarity: number;
  metadata: Record<string, unknown>;
  tags: string[];
  importance: number;
  namespace: string;
  memory_type: string;
  session_id: string | null;
  agent_id: string | null;
  created_at: string;
  access_count: number;
  pinned: boolean;
  relations?: RelationSummary[];
  _signals: Signals;
}

export interface RelationSummary {
  id: string;
  source_id: string;
  target_id: string;
  relation_type: string;
  direction: "outgoing" | "incoming";
}

export function recallFilters(input: RecallInput): MemoryFilters {
  return {
    namespace: input.namespace,
    session_id: input.session_id,
    agent_id: input.agent_id,
    tags: input.filters?.tags,
    after: input.filters?.after ?? input.since,
    before: input.filters?.before ?? input.until,
    memory_type: input.filters?.memory_type,
    pinned: input.filters?.pinned,
    metadata: input.filters?.metadata,
  };
}

/** The candidate-and-signals query of recall (exported for EXPLAIN in benchmarks). */
export function recallStatement(
  where: SQL,
  query: string,
  v: string,
  model: string,
  k: number,
): SQL {
  return sql`
    WITH qlex AS (
      SELECT coalesce((array_agg(DISTINCT lexeme))[1:${MAX_QUERY_LEXEMES}], '{}') AS lex
      FROM unnest(to_tsvector('english', ${query}))
    ),
    qt AS (
      SELECT lex, CASE WHEN cardinality(lex) = 0 THEN NULL
        ELSE array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(lex) AS l), ' | ')::tsquery
        END AS tq
      FROM qlex
    ),
    scope AS MATERIALIZED (
      SELECT count(*) AS n FROM (SELECT 1 FROM memories WHERE ${where} LIMIT ${EXACT_SCAN_MAX + 1}) s
    ),
    exact AS (
      SELECT id FROM memories WHERE ${where} AND (SELECT n FROM scope) <= ${EXACT_SCAN_MAX}
    ),
    vec_ann AS (
      SELECT id FROM memories
      WHERE ${where} AND embedding_model = ${model} AND (SELECT n FROM scope) > ${EXACT_SCAN_MAX}
      ORDER BY embedding <=> ${v}::vector
      LIMIT ${k}
    ),
    kw AS (
      -- Ranks at most KEYWORD_SCAN_MAX matching rows: a common word can match most of a large
      -- wallet, and ranking every match cost ~0.9 s at 100k memories. Rare words (the
      -- informative ones) match fewer rows and are ranked in full.
      SELECT matched.id FROM (
        SELECT id, search FROM memories, qt
        WHERE ${where} AND (SELECT n FROM scope) > ${EXACT_SCAN_MAX}
          AND qt.tq IS NOT NULL AND search @@ qt.tq
        LIMIT ${KEYWORD_SCAN_MAX}
      ) matched, qt
      ORDER BY ts_rank_cd(matched.search, qt.tq) DESC
      LIMIT ${k}
    ),
    hot AS (
      SELECT id FROM memories
      WHERE ${where} AND (SELECT n FROM scope) > ${EXACT_SCAN_MAX} AND access_count > 0
      ORDER BY access_count DESC NULLS LAST
      LIMIT ${k}
    ),
    cand AS (
      SELECT id FROM exact UNION SELECT id FROM vec_ann UNION SELECT id FROM kw
      UNION SELECT id FROM hot
    ),
    rc AS (
      SELECT e.id, count(*) AS n
      FROM (
        SELECT r.source_id AS id, r.target_id AS other FROM relations r JOIN cand c ON c.id = r.source_id
        UNION ALL
        SELECT r.target_id, r.source_id FROM relations r JOIN cand c ON c.id = r.target_id
      ) e
      JOIN memories o ON o.id = e.other
      WHERE o.deleted_at IS NULL AND (o.expires_at IS NULL OR o.expires_at > now())
      GROUP BY e.id
    )
    SELECT m.id, m.importance, m.memory_type, m.pinned, m.access_count, m.created_at, m.accessed_at,
      CASE WHEN m.embedding_model = ${model} THEN 1 - (m.embedding <=> ${v}::vector) ELSE 0 END
        AS vector_sim,
      CASE WHEN cardinality(qt.lex) = 0 THEN 0 ELSE
        (SELECT count(*) FROM unnest(qt.lex) AS l WHERE m.search @@ quote_literal(l)::tsquery)::float8
          / cardinality(qt.lex)
      END AS keyword,
      coalesce(rc.n, 0) AS relation_count
    FROM cand JOIN memories m ON m.id = cand.id CROSS JOIN qt LEFT JOIN rc ON rc.id = m.id`;
}

/** Scores the caller's memories against a query; the ranking is `score` descending. */
export async function rankMemories(
  ctx: DomainContext,
  query: string,
  filters: MemoryFilters,
  limit: number,
  minSimilarity = 0,
): Promise<{ memories: RecalledMemory[]; queryTokens: number }> {
  const embed = () => ctx.embedder.embed([query]);
  const { vectors, tokens } = await (ctx.timings?.measure("embed", embed) ?? embed());
  const vector = vectors[0] ?? [];
  const v = `[${vector.join(",")}]`;
  const model = ctx.embedder.model;
  const k = Math.min(MAX_CANDIDATES, Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT));
  const where = and(...filterConditions(ctx.userId, filters)) as SQL;

  const statement = recallStatement(where, query, v, model, k);
  const run = () => ctx.db.execute<CandidateRow>(statement);
  const result = await (ctx.timings?.measure("sql", run) ?? run());

  const scoring = performance.now();
  const now = Date.now();
  const top = result.rows
    .map((row) => ({
      row,
      ...scoreMemory(
        {
          vector: Number(row.vector_sim ?? 0),
          keyword: Number(row.keyword ?? 0),
          importance: Number(row.importance),
          memoryType: row.memory_type,
          pinned: row.pinned,
          accessCount: Number(row.access_count),
          relationCount: Number(row.relation_count),
          createdAt: new Date(row.created_at),
          accessedAt: new Date(row.accessed_at),
        },
        now,
      ),
    }))
    .filter((m) => m.score >= minSimilarity)
    .sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : 1))
    .slice(0, limit);
  ctx.timings?.add("score", performance.now() - scoring);

  // Only the returned memories need their content and metadata: one narrow query above, one
  // small one here, instead of shipping every candidate's text to the Worker.
  const fetchDetails = () =>
    top.length === 0
      ? Promise.resolve([])
      : ctx.db
          .select({
            id: memories.id,
            content: memories.content,
            metadata: memories.metadata,
            tags: memories.tags,
            namespace: memories.namespace,
            sessionId: memories.sessionId,
            agentId: memories.agentId,
          })
          .from(memories)
          .where(
            inArray(
              memories.id,
              top.map((m) => m.row.id),
            ),
          );
  const details = new Map(
    (await (ctx.timings?.measure("fetch", fetchDetails) ?? fetchDetails())).map((d) => [d.id, d]),
  );
  const ranked = top.flatMap(({ row, score, signals }): RecalledMemory[] => {
    const d = details.get(row.id);
    if (!d) return [];
    return [
      {
        id: row.id,
        content: d.content,
        similarity: score,
        metadata: withTags(d.metadata, d.tags),
        tags: d.tags,
        importance: roundImportance(Number(row.importance)),
        namespace: d.namespace,
        memory_type: row.memory_type,
        session_id: d.sessionId,
        agent_id: d.agentId,
        created_at: new Date(row.created_at).toISOString(),
        access_count: Number(row.access_count),
        pinned: row.pinned,
        _signals: signals,
      },
    ];
  });
  return { memories: ranked, queryTokens: tokens };
}

/**
 * Counts an access for each recalled memory. It is issued before the response is sent (so
 * the per-request pool is still open) and awaited through waitUntil, off the response path.
 */
export function recordAccess(ctx: DomainContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return Promise.resolve();
  return ctx.db
    .update(memories)
    .set({ accessCount: sql`${memories.accessCount} + 1`, accessedAt: sql`now()` })
    .where(and(eq(memories.userId, ctx.userId), inArray(memories.id, ids)))
    .then(() => undefined);
}

/** Relations of each memory whose other end is live, keyed by memory id. */
export async function relationsOf(
  ctx: DomainContext,
  ids: string[],
): Promise<Map<string, RelationSummary[]>> {
  const out = new Map<string, RelationSummary[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const src = alias(memories, "src");
  const dst = alias(memories, "dst");
  const rows = await ctx.db
    .select({
      id: relations.id,
      source_id: relations.sourceId,
      target_id: relations.targetId,
      relation_type: relations.relationType,
    })
    .from(relations)
    .innerJoin(src, eq(src.id, relations.sourceId))
    .innerJoin(dst, eq(dst.id, relations.targetId))
    .where(
      and(
        eq(relations.userId, ctx.userId),
        or(inArray(relations.sourceId, ids), inArray(relations.targetId, ids)),
        isLive(src),
        isLive(dst),
      ),
    )
    .orderBy(relations.createdAt);
  for (const r of rows) {
    out.get(r.source_id)?.push({ ...r, direction: "outgoing" });
    if (r.target_id !== r.source_id) out.get(r.target_id)?.push({ ...r, direction: "incoming" });
  }
  return out;
}

export async function recall(ctx: DomainContext, input: RecallInput) {
  const { memories: ranked, queryTokens } = await rankMemories(
    ctx,
    input.query,
    recallFilters(input),
    input.limit ?? 5,
    input.min_similarity ?? 0,
  );
  if (input.include_relations) {
    const rels = await relationsOf(
      ctx,
      ranked.map((m) => m.id),
    );
    for (const m of ranked) m.relations = rels.get(m.id) ?? [];
  }
  return { memories: ranked, query_tokens: queryTokens };
}
