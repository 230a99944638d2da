/**
 * Recall: embeds the query and counts the memories passing the filters, runs the candidate
 * statement (candidates.ts), scores the rows it returns exactly (scoring.ts) and shapes the
 * response. When at most EXACT_SCAN_MAX memories pass the filters, every one of them is scored
 * (scoring.ts), so the ranking is exactly a brute-force ranking. Above that, candidates come
 * from the HNSW index (nearest vectors) and the full-text index (memories sharing two query
 * lexemes), each filtered in SQL before its LIMIT so filters never cause short pages. (No
 * most-accessed source: context_importance = effective · relevance² makes an irrelevant
 * memory score near 0 whatever its access_boost, and an index on access_count would make
 * every access update rewrite the row's HNSW entry; see schema/tables.ts.) Postgres scores
 * the candidates with scoreSql and returns the best few; scoreMemory recomputes them for the
 * response.
 */
import { and, type SQL, sql } from "drizzle-orm";
import type { DomainContext } from "../context";
import { vectorLiteral } from "../lib/vector-literal";
import { efSearchCap, isExactScope, recallEfSearch, scopeSize } from "../memories/ann";
import { filterConditions, type MemoryFilters } from "../memories/list";
import { countedLive } from "../memories/live-count";
import { roundImportance, withTags } from "../memories/rows";
import {
  CANDIDATES_PER_RESULT,
  type CandidateRow,
  MAX_CANDIDATES,
  MIN_CANDIDATES,
  recallStatement,
  SCORE_SLACK,
} from "./candidates";
import { commonLexemes } from "./common-lexemes";
import { type RelationSummary, relationsOf } from "./relation-summaries";
import { type RecallInput, recallFilters } from "./request";
import { type Signals, scoreMemory } from "./scoring";
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
  /** Not in the spec's list; the public SDKs read it (Python defaults it to false). */
  immutable: boolean;
  relations?: RelationSummary[];
  _signals: Signals;
}

/** Scores the caller's memories against a query; the ranking is `score` descending. */
export async function rankMemories(
  ctx: DomainContext,
  query: string,
  filters: MemoryFilters,
  limit: number,
  minSimilarity = 0,
): Promise<{ memories: RecalledMemory[]; queryTokens: number }> {
  const where = and(...filterConditions(ctx.userId, filters)) as SQL;
  const sizeWhere = and(...filterConditions(ctx.userId, filters, "undeleted")) as SQL;
  // The scope's size picks the statement (candidates.ts); it is counted while the query is
  // embedded, which it does not need.
  const embed = () => ctx.embedder.embed([query]);
  const count = () =>
    ctx.db.execute<{ n: number; wallet: number; cap: string | null }>(
      sql`SELECT ${scopeSize(sizeWhere)} AS n, ${countedLive(ctx.userId)} AS wallet,
        ${efSearchCap} AS cap`,
    );
  const [{ vectors, tokens }, size] = await Promise.all([
    ctx.timings?.measure("embed", embed) ?? embed(),
    ctx.timings?.measure("scope", count) ?? count(),
  ]);
  const vector = vectors[0] ?? [];
  const v = vectorLiteral(vector);
  const model = ctx.embedder.model;
  const k = Math.min(MAX_CANDIDATES, Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT));

  // Postgres ranks the candidates with the same formula (scoreSql) and returns the best few;
  // they are scored again here, exactly, for the response.
  const now = Date.now();
  const exact = isExactScope(Number(size.rows[0]?.n ?? 0));
  // A large wallet's graph is searched deeper (recallEfSearch), by the statement itself.
  const ef = exact
    ? undefined
    : recallEfSearch(Number(size.rows[0]?.wallet ?? 0), size.rows[0]?.cap);
  const statement = recallStatement({
    userId: ctx.userId,
    where,
    exact,
    commonLexemes: exact ? [] : await commonLexemes(ctx.db),
    query,
    vector: v,
    model,
    semantic: ctx.embedder.semantic,
    k,
    efSearch: ef,
    take: limit + SCORE_SLACK,
    now,
  });
  const run = () => ctx.db.execute<CandidateRow>(statement);
  const result = await (ctx.timings?.measure("sql", run) ?? run());

  const scoring = performance.now();
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
        ctx.embedder.semantic
          ? { median: Number(row.vector_median), best: Number(row.vector_best) }
          : null,
      ),
    }))
    .filter((m) => m.score >= minSimilarity)
    .sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : 1))
    .slice(0, limit);
  ctx.timings?.add("score", performance.now() - scoring);

  const ranked = top.map(
    ({ row, score, signals }): RecalledMemory => ({
      id: row.id,
      content: row.content,
      similarity: score,
      metadata: withTags(row.metadata, row.tags),
      tags: row.tags,
      importance: roundImportance(Number(row.importance)),
      namespace: row.namespace,
      memory_type: row.memory_type,
      session_id: row.session_id,
      agent_id: row.agent_id,
      created_at: new Date(row.created_at).toISOString(),
      access_count: Number(row.access_count),
      pinned: row.pinned,
      immutable: row.immutable,
      _signals: signals,
    }),
  );
  return { memories: ranked, queryTokens: tokens };
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
