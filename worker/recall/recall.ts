/**
 * Recall: embeds the query (while the database connection opens), runs the candidate
 * statement (candidates.ts), which counts the memories passing the filters itself, scores the rows it returns exactly (scoring.ts) and shapes the
 * response. When at most EXACT_SCAN_MAX memories pass the filters, every one of them is scored
 * (scoring.ts), so the ranking is exactly a brute-force ranking. Above that, candidates come
 * from the HNSW index (nearest vectors) and the full-text index (memories sharing two query
 * lexemes), each filtered in SQL before its LIMIT so filters never cause short pages. (No
 * most-accessed source: context_importance = effective · relevance⁵ makes an irrelevant
 * memory score near 0 whatever its access_boost, and an index on access_count would make
 * every access update rewrite the row's HNSW entry; see schema/tables.ts.) Postgres scores
 * the candidates with scoreSql and returns the best few; scoreMemory recomputes them for the
 * response. A question joining names is ranked once per name too (sub-queries.ts), in the
 * same statement, which reads each memory once for all of them; each memory keeps its best
 * score.
 */
import { and, type SQL } from "drizzle-orm";
import { vectorLiteral } from "../../schema/vector-literal";
import type { DomainContext } from "../context";
import { BoundedMap } from "../lib/bounded-map";
import { isExactScope, recallEfSearch } from "../memories/ann";
import { filterConditions, type MemoryFilters } from "../memories/list";
import { rawMemory } from "../memories/rows";
import {
  CANDIDATES_PER_RESULT,
  type CandidateRow,
  MAX_CANDIDATES,
  MIN_CANDIDATES,
  recallStatement,
  SCORE_SLACK,
  type ScopeSizes,
} from "./candidates";
import { commonLexemes } from "./common-lexemes";
import { keywordQuery } from "./query-dates";
import { type RelationSummary, relationsOf } from "./relation-summaries";
import { type RecallInput, recallFilters } from "./request";
import { type Signals, scoreMemory } from "./scoring";
import { subQueries } from "./sub-queries";

/**
 * The scope sizes the last recall of a wallet with the same filters found, per isolate: they
 * pick the next recall's statement (a large wallet's approximate one) without counting first.
 * A stale entry costs one more statement, never a wrong answer (candidates.ts).
 */
const lastScope = new BoundedMap<string, ScopeSizes>(10_000);

/** A recalled memory: the fields every memory answer has (rows.ts rawMemory) and recall's. */
export type RecalledMemory = ReturnType<typeof rawMemory> & {
  similarity: number;
  tags: string[];
  pinned: boolean;
  /** Not in the spec's list; the public SDKs read it (Python defaults it to false). */
  immutable: boolean;
  relations?: RelationSummary[];
  _signals: Signals;
};

/** Scores the caller's memories against a query; the ranking is `score` descending. */
export async function rankMemories(
  ctx: DomainContext,
  query: string,
  filters: MemoryFilters,
  limit: number,
  minSimilarity = 0,
): Promise<{ memories: RecalledMemory[]; queryTokens: number }> {
  const where = and(...filterConditions(ctx, filters)) as SQL;
  const sizeWhere = and(...filterConditions(ctx, filters, "undeleted")) as SQL;
  // A question joining names is ranked once per name as well (sub-queries.ts). Embedded apart
  // from the query, in parallel, so that query_tokens stays the query's own count.
  const subs = subQueries(query);
  const embed = () =>
    Promise.all([
      ctx.embedder.embed([query]),
      subs.length > 0 ? ctx.embedder.embed(subs) : { vectors: [], tokens: 0 },
    ]);
  // The connection opens while the query is embedded.
  const [[{ vectors, tokens }, subEmbedded]] = await Promise.all([
    ctx.timings?.measure("embed", embed) ?? embed(),
    ctx.connect(),
  ]);
  const queries = [query, ...subs].map((text, i) => ({
    text,
    vector: vectorLiteral((i === 0 ? vectors[0] : subEmbedded.vectors[i - 1]) ?? []),
  }));
  const k = Math.min(MAX_CANDIDATES, Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT));

  // Postgres ranks the candidates with the same formula (scoreSql) and returns the best few;
  // they are scored again here, exactly, for the response.
  const now = Date.now();
  const key = `${ctx.userId}:${ctx.grant?.grantee ?? ""}:${JSON.stringify(filters)}`;
  const run = async (sizes: ScopeSizes | undefined) => {
    const exact = !sizes || isExactScope(Number(sizes.scope_n));
    const common = exact ? [] : await commonLexemes(ctx.db);
    const statement = recallStatement({
      userId: ctx.userId,
      ...(ctx.grant ? { grant: ctx.grant } : {}),
      where,
      sizeWhere,
      exact,
      commonLexemes: common,
      // The keyword signal reads the query's dates written out (query-dates.ts).
      queries: queries.map((q) => ({ text: keywordQuery(q.text), vector: q.vector })),
      model: ctx.embedder.model,
      semantic: ctx.embedder.semantic,
      k,
      // A large wallet's graph is searched deeper (recallEfSearch), by the statement itself.
      efSearch: exact ? undefined : recallEfSearch(Number(sizes.scope_wallet), sizes.scope_cap),
      take: limit + SCORE_SLACK,
      now,
    });
    const execute = () => ctx.db.execute<CandidateRow>(statement);
    const rows = (await (ctx.timings?.measure("sql", execute) ?? execute())).rows;
    const found = rows[0];
    if (found) lastScope.set(key, found);
    const right = found && isExactScope(Number(found.scope_n)) === exact;
    return { rows: rows.filter((r) => r.id), right, found };
  };
  let result = await run(lastScope.get(key));
  // The scope crossed EXACT_SCAN_MAX since this isolate last saw it: the other path.
  if (!result.right && result.found) result = await run(result.found);

  const scoring = performance.now();
  const scored = result.rows
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
          // Recency counts from when the fact occurred (the time of storing by default).
          createdAt: new Date(row.occurred_at),
          accessedAt: new Date(row.accessed_at),
        },
        now,
        ctx.embedder.semantic
          ? {
              median: Number(row.vector_median),
              best: Number(row.vector_best),
              n: Number(row.vector_n),
            }
          : null,
      ),
    }))
    .filter((m) => m.score >= minSimilarity)
    .sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : 1));
  // A memory found by the query and a sub-query counts once, by its best score.
  const seen = new Set<string>();
  const top = scored.filter((m) => !seen.has(m.row.id) && seen.add(m.row.id)).slice(0, limit);
  ctx.timings?.add("score", performance.now() - scoring);

  const ranked = top.map(
    ({ row, score, signals }): RecalledMemory => ({
      ...rawMemory(row),
      similarity: score,
      tags: row.tags,
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
