/**
 * The approximate path of recall's statement (candidates.ts), for a scope above
 * EXACT_SCAN_MAX: each query's candidates are its nearest vectors (the wallet's HNSW shard,
 * and its rows not indexed yet, ann.ts) and its full-text matches, gathered into one array
 * that every query then scores. These are CTEs of that statement: they read its `size`,
 * `qlex` and `qt` (with `kq`, keywordCandidateQuery) and give it `cand`.
 */
import { type SQL, sql } from "drizzle-orm";
import { annQueryVector, annRows, backlogRows, EXACT_SCAN_MAX } from "../memories/ann";
import { inShard } from "../memories/shard";

/** Most full-text matches ranked for keyword candidates (see the kw CTEs). */
const KEYWORD_SCAN_MAX = 2000;
/** Lexemes paired up for keyword candidates (at most 66 pairs). */
const KEYWORD_PAIR_LEXEMES = 12;

export interface ApproximateInput {
  userId: string;
  where: SQL;
  queries: { vector: string }[];
  model: string;
  /** Candidates per source and query. */
  k: number;
  efSearch?: number;
}

/** The CTEs `common` and `klex`: each query's lexemes, informative first (common-lexemes.ts). */
export function keywordLexemes(commonLexemes: string[]): SQL {
  return sql`
    common AS (SELECT ${sql.param(commonLexemes)}::text[] AS lex),
    -- Lexemes for keyword candidates, informative first (common-lexemes.ts).
    klex AS (
      SELECT qlex.q, (ARRAY(
        SELECT l FROM unnest(qlex.lex) AS l ORDER BY l = ANY (common.lex), l
      ))[1:${KEYWORD_PAIR_LEXEMES}] AS lex, common.lex AS common
      FROM qlex, common
    ),`;
}

/** `qt.kq`, each query's full-text query of keyword candidates, from `klex`. */
export const keywordCandidateQuery = sql`
        -- Keyword candidates share at least two query lexemes (one alone for a one-lexeme
        -- query), not both common ones unless every lexeme is common.
        CASE WHEN cardinality(klex.lex) = 0 THEN NULL
          WHEN cardinality(klex.lex) = 1 THEN quote_literal(klex.lex[1])::tsquery
          ELSE (
            SELECT string_agg(format('(%s & %s)', quote_literal(x.a), quote_literal(y.b)), ' | ')
            FROM unnest(klex.lex) WITH ORDINALITY AS x(a, i),
              unnest(klex.lex) WITH ORDINALITY AS y(b, j)
            WHERE x.i < y.j
              AND (x.a <> ALL (klex.common) OR y.b <> ALL (klex.common) OR klex.lex <@ klex.common)
          )::tsquery
        END AS kq`;

/** Each query's candidate CTEs, and `cand`: all their ids as one array. */
export function approximateCandidates({
  userId,
  where,
  queries,
  model,
  k,
  efSearch,
}: ApproximateInput): SQL {
  // The approximate path's candidates: each query's nearest vectors and full-text matches,
  // as one array (every query then scores all of them).
  const candidatesOf = ({ vector: v }: { vector: string }, i: number) => sql`
    -- The nearest vectors of the wallet's HNSW shard, and of its rows not indexed yet
    -- (ann.ts), compared exactly.
    ${sql.raw(`vec_ann_${i}`)} AS (
      SELECT id FROM memories
      WHERE ${where} AND embedding_model = ${model}
        AND ${annRows(userId)}
      ORDER BY embedding <=> ${annQueryVector(v, efSearch)}
      LIMIT ${k}
    ),
    ${sql.raw(`vec_backlog_${i}`)} AS (
      SELECT id FROM memories
      WHERE ${where} AND embedding_model = ${model}
        AND ${backlogRows}
      ORDER BY (embedding <=> ${v}::vector) + 0
      LIMIT ${k}
    ),
    ${sql.raw(`kw_${i}`)} AS (
      -- Ranks at most KEYWORD_SCAN_MAX rows sharing two query lexemes (qt.kq): ranking every
      -- row with any query lexeme cost ~0.9 s at 100k memories, and ~40 ms for the rare ones.
      -- ts_rank, not ts_rank_cd: 2,000 rows rank in ~2 ms instead of ~11 ms. The shard names
      -- the wallet's partial GIN index (shard.ts).
      SELECT matched.id FROM (
        SELECT id, search FROM memories, qt
        WHERE ${where} AND qt.q = ${i + 1}
          AND qt.kq IS NOT NULL AND ${inShard(userId)} AND search @@ qt.kq
        LIMIT ${KEYWORD_SCAN_MAX}
      ) matched, qt
      WHERE qt.q = ${i + 1}
      ORDER BY ts_rank(matched.search, qt.tq) DESC
      LIMIT ${k}
    ),`;
  const candidateIds = sql.join(
    queries.map((_, i) =>
      sql.raw(
        `SELECT id FROM vec_ann_${i} UNION SELECT id FROM vec_backlog_${i} UNION SELECT id FROM kw_${i}`,
      ),
    ),
    sql` UNION `,
  );
  return sql`
    ${sql.join(queries.map(candidatesOf), sql``)}
    -- The candidate ids as one array: the planner then looks them up through the primary key.
    -- As a CTE joined to memories, it was planned as a hash of the entire table: 230 ms of a
    -- 450 ms recall at 100k memories.
    cand AS (
      SELECT ARRAY(${candidateIds}) AS ids
      WHERE (SELECT n FROM size) > ${EXACT_SCAN_MAX}
    ),`;
}
