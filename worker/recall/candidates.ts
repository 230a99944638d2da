/**
 * Recall's SQL: one statement of two kinds, by how many memories pass the filters (ann.ts's
 * scopeSize). At most EXACT_SCAN_MAX of them: every one is scored (exact). Above it: the
 * nearest vectors and the full-text matches are the candidates (approximate, approximate.ts).
 * Either way Postgres scores them with scoreSql against the question and each of its
 * sub-queries, and returns each query's best few with their text (recall.ts ranks them).
 *
 * Two statements, not one that holds both paths: one statement held both paths behind
 * one-time filters, and Postgres planned both on every call. At 1,000 memories it planned for
 * 7.8 ms and ran for 21; the exact statement alone plans in 2.8 and runs in 16. So recall.ts
 * picks one (the exact one, or what the wallet's last recall found), and each counts the scope
 * itself and skips its work when the count says the other: one round trip, where a count
 * before the statement was two (40-300 ms at production's distances).
 */
import { type SQL, sql } from "drizzle-orm";
import type { GrantUse } from "../context";
import { EXACT_SCAN_MAX, efSearchCap, scopeSize } from "../memories/ann";
import { countedLive } from "../memories/live-count";
import { replacementColumns } from "../memories/updates/current";
import { grantedNamespace } from "../sharing/scope";
import { approximateCandidates, keywordCandidateQuery, keywordLexemes } from "./approximate";
import { scoreSql } from "./scoring";

/** How many candidates each index contributes, per requested result. */
export const CANDIDATES_PER_RESULT = 5;
export const MIN_CANDIDATES = 50;
export const MAX_CANDIDATES = 500;
/** Query lexemes used for keyword matching (a 32 KB query would otherwise OR thousands). */
const MAX_QUERY_LEXEMES = 64;

/** The scope's size, the wallet's and the depth cap, on every row (alone when no path ran). */
export type ScopeSizes = { scope_n: number; scope_wallet: number; scope_cap: string | null };

/** One of the best-scoring candidates: its signals and what the response shows of it. */
export type CandidateRow = ScopeSizes & {
  id: string;
  importance: number;
  memory_type: string;
  pinned: boolean;
  access_count: number;
  created_at: Date | string;
  /** When the fact occurred: recency counts from it (docs/knowledge-updates.md). */
  occurred_at: Date | string;
  accessed_at: Date | string;
  vector_sim: number | string | null;
  keyword: number | string | null;
  relation_count: number | string;
  /** The query's median and best cosine among the memories scored (recallStatement's vs). */
  vector_median: number | string;
  vector_best: number | string;
  /** How many cosines those are. */
  vector_n: number | string;
  content: string;
  metadata: Record<string, unknown>;
  tags: string[];
  namespace: string;
  session_id: string | null;
  agent_id: string | null;
  immutable: boolean;
  created_by: string;
  supersedes: unknown;
  superseded_by: unknown;
};

/** Rows ranked beyond the requested limit, so the exact re-sort in scoreMemory has slack. */
export const SCORE_SLACK = 10;

export interface RecallStatementInput {
  /** The owner, whose HNSW shard the vector candidates come from. */
  userId: string;
  /** A grantee's grant: `where` holds it; the relation counts' other ends must too. */
  grant?: GrantUse;
  where: SQL;
  /**
   * The scope that picks the path (filterConditions' `undeleted` rows), counted by the
   * statement itself: it runs its path only if the count agrees, and answers ScopeSizes.
   */
  sizeWhere: SQL;
  /**
   * Score every memory passing `where` (a scope of at most EXACT_SCAN_MAX, by ann.ts's
   * scopeSize over filterConditions' `undeleted` rows: the size only picks the path,
   * and without the expiry test it is counted from an index alone; with it, a namespace
   * filter made Postgres build a bitmap of the whole wallet first, 14.5 ms at 100k memories
   * against 0.45), or only the approximate candidates.
   */
  exact: boolean;
  /** The approximate path's common lexemes (common-lexemes.ts); unused on the exact path. */
  commonLexemes: string[];
  /**
   * The question and its sub-queries (sub-queries.ts), each with its embedding as a pgvector
   * literal. Every memory is read once and scored against each of them, each with its own
   * median, best and IDF; the best `take` of each come back, each row with its query's
   * vector_median, vector_best and vector_n.
   */
  queries: { text: string; vector: string }[];
  model: string;
  /** Rescale a semantic model's cosine in relevance (scoring.ts, relevantVector). */
  semantic: boolean;
  /** Candidates per source (nearest vectors, full-text). */
  k: number;
  /**
   * The HNSW search depth (hnsw.ef_search) for the nearest vectors, when not the database's
   * (ann.ts, recallEfSearch). The statement sets it itself (ann.ts, annQueryVector).
   */
  efSearch?: number;
  /** Rows returned per query: its best `take` by score. */
  take: number;
  now: number;
}

/** The candidate-and-score query of recall (exported for EXPLAIN in benchmarks). */
export function recallStatement({
  userId,
  grant,
  where,
  sizeWhere,
  exact,
  commonLexemes,
  queries,
  model,
  semantic,
  k,
  efSearch,
  take,
  now,
}: RecallStatementInput): SQL {
  const col = (name: string) => sql.raw(`c.${name}`);
  const score = scoreSql(
    {
      vector: col("vector_sim"),
      keyword: col("keyword"),
      importance: col("importance"),
      memoryType: col("memory_type"),
      pinned: col("pinned"),
      accessCount: col("access_count"),
      relationCount: col("relation_count"),
      createdAt: col("occurred_at"),
      accessedAt: col("accessed_at"),
    },
    now,
    semantic
      ? { median: col("vector_median"), best: col("vector_best"), n: col("vector_n") }
      : null,
  );
  // A grantee counts only relations whose other end it may read (sharing/scope.ts), as an
  // aggregate FILTER: a WHERE condition there changed the plan (on fresh statistics Postgres
  // began from every wallet's live memories, 40 ms against 5), a FILTER cannot.
  const relatedEnd = grantedNamespace(
    { userId, ...(grant ? { grant } : {}) },
    sql.raw("o.namespace"),
  );
  return sql`
    -- The scope's size picks the path; a one-time filter skips this path when it is the
    -- other one's, and the sizes come back with the rows.
    WITH size AS MATERIALIZED (
      SELECT ${scopeSize(sizeWhere)} AS n, ${countedLive(userId)} AS wallet, ${efSearchCap} AS cap
    ),
    -- The question and its sub-queries, numbered from 1.
    qs AS (
      SELECT t.q, t.text, t.vec::vector AS v
      FROM unnest(${sql.param(queries.map((q) => q.text))}::text[],
        ${sql.param(queries.map((q) => q.vector))}::text[]) WITH ORDINALITY AS t(text, vec, q)
    ),
    qlex AS (
      SELECT qs.q, coalesce((
        SELECT (array_agg(DISTINCT lexeme))[1:${MAX_QUERY_LEXEMES}]
        FROM unnest(to_tsvector('english', qs.text))
      ), '{}') AS lex
      FROM qs
    ),
    ${exact ? sql`` : keywordLexemes(commonLexemes)}
    qt AS (
      SELECT qs.q, qs.v, qlex.lex,
        ARRAY(SELECT quote_literal(l)::tsquery FROM unnest(qlex.lex) AS l) AS tqs,
        CASE WHEN cardinality(qlex.lex) = 0 THEN NULL
          ELSE array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(qlex.lex) AS l), ' | ')
            ::tsquery
        END AS tq
        ${exact ? sql`` : sql`, ${keywordCandidateQuery}`}
      FROM qs JOIN qlex ON qlex.q = qs.q${exact ? sql`` : sql` JOIN klex ON klex.q = qs.q`}
    ),
    ${exact ? sql`` : approximateCandidates({ userId, where, queries, model, k, efSearch })}
    -- Each memory against each query. Materialized: the score refers to each signal several
    -- times, and inlined, Postgres recomputed the vector distance for every reference. LATERAL,
    -- so the memories are read once whatever the number of queries. That saved less than
    -- hoped: the cosine, lexeme tests and score per memory and query are the cost, not the
    -- read (three queries at 1,500 memories: 234 -> 202 ms embedded, 118 -> 120 ms on a
    -- PostgreSQL server, against one statement per query; docs/recall.md).
    c0 AS MATERIALIZED (
      SELECT m.id, x.q, m.importance::text::float8 AS importance, -- real → the value JS reads
        m.memory_type, m.pinned, m.access_count,
        m.created_at, m.occurred_at, m.accessed_at, x.vector_sim,
        m.embedding_model = ${model} AS same_model, x.hits
      FROM (${
        exact
          ? // The scope as the filters find it (a bitmap of the wallet's rows). Through the
            // primary key, one probe per row, 1,000 rows took 7.5 ms, and gathering their ids
            // into a candidate array 3.6 ms more.
            sql`SELECT * FROM memories WHERE ${where} AND (SELECT n FROM size) <= ${EXACT_SCAN_MAX}`
          : sql`SELECT * FROM memories WHERE id = ANY((SELECT ids FROM cand)::uuid[])`
      }) m CROSS JOIN LATERAL (
        SELECT qt.q,
          CASE WHEN m.embedding_model = ${model} THEN 1 - (m.embedding <=> qt.v) ELSE 0 END
            AS vector_sim,
          -- Which query lexemes (1-based positions in qt.lex) the memory contains. Most rows
          -- of an exact scan contain none, and one test of the whole query rules them out:
          -- the subquery per row cost 3 µs of them (2,000 rows: 6.5 ms, now 3.9).
          CASE WHEN m.search @@ qt.tq
            THEN ARRAY(SELECT l.i FROM unnest(qt.tqs) WITH ORDINALITY AS l(t, i) WHERE m.search @@ l.t)
            ELSE '{}'::bigint[]
          END AS hits
        FROM qt
      ) x
    ),
    -- Each scored memory's live relations (the decay signal's relation_count). Every query
    -- scores the same memories, so the first query's rows name each of them once.
    rc AS (
      SELECT e.id, count(*) FILTER (WHERE ${relatedEnd}) AS n
      FROM (SELECT ARRAY(SELECT id FROM c0 WHERE q = 1) AS ids) s,
      LATERAL (
        SELECT r.source_id AS id, r.target_id AS other FROM relations r
        WHERE r.source_id = ANY(s.ids)
        UNION ALL
        SELECT r.target_id, r.source_id FROM relations r
        WHERE r.target_id = ANY(s.ids)
      ) e
      JOIN memories o ON o.id = e.other
      WHERE o.deleted_at IS NULL AND (o.expires_at IS NULL OR o.expires_at > now())
      GROUP BY e.id
    ),
    -- Inverse document frequency of each query's lexemes among the scored memories (the whole
    -- scope on the exact path, the candidates otherwise): ln(1 + (N - df + 0.5) / (df + 0.5)).
    scored AS (SELECT q, count(*) AS n FROM c0 GROUP BY q),
    idf AS (
      SELECT qt.q, x.i, ln(1 + (coalesce(scored.n, 0) - coalesce(d.n, 0) + 0.5)
        / (coalesce(d.n, 0) + 0.5)) AS w
      FROM qt CROSS JOIN LATERAL generate_subscripts(qt.lex, 1) AS x(i)
      LEFT JOIN scored ON scored.q = qt.q
      LEFT JOIN (SELECT c0.q, h AS i, count(*) AS n FROM c0, unnest(c0.hits) AS h GROUP BY c0.q, h) d
        ON d.q = qt.q AND d.i = x.i
    ),
    idf_total AS (SELECT q, sum(w) AS w FROM idf GROUP BY q),
    -- Each query's median and best cosine among the memories of this model scored, clamped as
    -- the score clamps them (NaN, a zero vector's cosine, is 0).
    vs AS MATERIALIZED (
      SELECT qt.q, coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY s.x), 0)::float8 AS med,
        coalesce(max(s.x), 0)::float8 AS best, count(s.x)::float8 AS n
      FROM qt LEFT JOIN (SELECT c0.q, greatest(0::float8, least(1::float8,
          CASE WHEN vector_sim = 'NaN'::float8 THEN 0 ELSE vector_sim END)) AS x
        FROM c0 WHERE same_model) s ON s.q = qt.q
      GROUP BY qt.q
    ),
    c AS MATERIALIZED (
      SELECT c0.*,
        CASE WHEN cardinality(c0.hits) = 0 THEN 0::float8 -- no subquery for the many without
        ELSE coalesce((SELECT sum(idf.w) FROM idf WHERE idf.q = c0.q AND idf.i = ANY (c0.hits))
          / nullif(t.w, 0), 0)::float8
        END AS keyword,
        coalesce(rc.n, 0) AS relation_count,
        vs.med AS vector_median, vs.best AS vector_best, vs.n AS vector_n
      FROM c0 JOIN vs ON vs.q = c0.q
        LEFT JOIN idf_total t ON t.q = c0.q
        LEFT JOIN rc ON rc.id = c0.id
    ),
    -- Each query's best: a top-N sort per query.
    top AS (
      SELECT t.* FROM qs CROSS JOIN LATERAL (
        SELECT c.* FROM c WHERE c.q = qs.q ORDER BY ${score} DESC, c.id LIMIT ${take}
      ) t
    )
    -- Text and metadata only for the returned rows, in the same round trip; the sizes always.
    SELECT size.n AS scope_n, size.wallet AS scope_wallet, size.cap AS scope_cap, r.*
    FROM size LEFT JOIN (
      SELECT top.*, m.content, m.metadata, m.tags, m.namespace, m.session_id, m.agent_id,
        m.immutable, m.created_by,
        ${replacementColumns(sql.raw("m.id"), { userId, ...(grant ? { grant } : {}) })}
      FROM top JOIN memories m ON m.id = top.id
    ) r ON true`;
}
