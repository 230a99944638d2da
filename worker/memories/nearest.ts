/**
 * The nearest live memories of many probe vectors at once, within one wallet: deduplication
 * (the nearest at cosine ≥ 0.95, or with replacement detection the 5 nearest current ones at
 * ≥ 0.5: memories/updates/plan.ts) and auto_relate (the 3 nearest at ≥ 0.75) ask this. How
 * each scope is searched is ann.ts's rule:
 *
 * - Scopes of at most EXACT_SCAN_MAX memories, and the backlog of larger ones, are compared
 *   exactly, in one pass: each row is read once and compared with every probe of its
 *   namespace, and only pairs at the threshold come back. (One ORDER BY … LIMIT per probe
 *   read the scope once per probe: 100 probes into 1,000 memories took ~190 ms, this ~15.)
 * - Larger scopes also get one probe per vector into the wallet's HNSW shard.
 * - With `sameText`, a memory whose text is the probe's (its content hash) comes first, and
 *   is looked up by hash as well: the HNSW probe is approximate, and in a wallet of 10,000
 *   it missed 1-2 of 100 exact repeats of stored texts at deduplication's ef_search 20
 *   (docs/benchmarks.md), which stored them twice.
 */
import { type SQL, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import { vectorLiteral } from "../../schema/vector-literal";
import { annRows, backlogRows, EXACT_SCAN_MAX, scopeSize } from "./ann";
import { isLive, liveMemory, undeletedMemory } from "./rows";

export interface NearestQuery {
  userId: string;
  /** Only vectors of this model are compared. */
  model: string;
  /**
   * A relation with columns `i` (the probe's number), `ns` (namespace) and `v` (vector), and
   * `h` (the probe text's content hash) with `sameText`.
   */
  probes: SQL;
  /** Memories holding the probe's own text (by `h`) come first, and are always found. */
  sameText?: boolean;
  /** At most this many neighbours per probe, most similar first… */
  k: number;
  /** …each at this cosine similarity or more. */
  minSimilarity: number;
  /** Memory columns to return beside `i` and `similarity` (of `m`). */
  columns: SQL;
  /** More conditions on the candidate memories `m` (e.g. not the probes' own rows). */
  where?: SQL;
}

/** The statement: rows `(i, similarity, …columns)`, at most `k` per probe, best first. */
export function nearestStatement(q: NearestQuery): SQL {
  const maxDistance = 1 - q.minSimilarity + 1e-9;
  const more = sql`AND ${memories.embeddingModel} = ${q.model}
    ${q.where ? sql`AND ${q.where}` : sql``}`;
  const scope = sql`${liveMemory({ userId: q.userId })} ${more}`;
  // The HNSW probes test the owner in a form no btree index serves. With a plain user_id =,
  // Postgres chose by its estimate of the wallet's size, and while a growing wallet's
  // statistics were stale (an estimate of ~1,000 rows at 5,000) it read the wallet through
  // memories_user_namespace_idx and sorted it, once per probe: 15 ms a probe instead of 1.5,
  // 1.2-2.3 s for a batch of 100 into a wallet of 5,000-10,000.
  const annScope = sql`(${memories.userId} = ${q.userId}) IS TRUE AND ${isLive(memories)} ${more}`;
  return sql`
    WITH q AS MATERIALIZED (${q.probes}),
    -- The size only picks the method (both find every live row), so it counts rows not
    -- deleted, expired or not, as the indexer does (ann.ts): that is an index-only scan of
    -- memories_user_namespace_idx that stops at the limit. With the expiry test, Postgres
    -- built a bitmap of the whole wallet first: 12.5 of a 14.4 ms single-item deduplication
    -- at 100k memories, 0.45 ms without.
    sizes AS MATERIALIZED (
      SELECT d.ns, ${scopeSize(sql`${undeletedMemory({ userId: q.userId })} AND ${memories.namespace} = d.ns`)} AS n
      FROM (SELECT DISTINCT ns FROM q) d
    ),
    -- Rows compared exactly: all of a small scope, the backlog of a large one, each read once
    -- and compared with the probes of its namespace. The size test is a one-time filter of
    -- each lateral scan, so a skipped branch reads nothing. The probes are the inner side, a
    -- lateral subquery kept from flattening (OFFSET 0): as a CTE joined to the probes, the rows
    -- were first copied into a tuplestore (1.6 KB each, past work_mem beyond ~2,500 rows, then
    -- spilled to a file), and as a plain join Postgres read the rows again for every probe.
    pairs AS (
      SELECT p.i, e.id, p.similarity, p.same
      FROM sizes d
      CROSS JOIN LATERAL (
        SELECT ${memories.id} AS id, ${memories.embedding} AS embedding,
          ${memories.contentHash} AS hash
        FROM ${memories}
        WHERE ${scope} AND ${memories.namespace} = d.ns AND d.n <= ${EXACT_SCAN_MAX}
        UNION ALL
        SELECT ${memories.id}, ${memories.embedding}, ${memories.contentHash} FROM ${memories}
        WHERE ${scope} AND ${memories.namespace} = d.ns AND d.n > ${EXACT_SCAN_MAX}
          AND ${backlogRows}
      ) e
      CROSS JOIN LATERAL (
        SELECT q.i, 1 - (e.embedding <=> q.v) AS similarity,
          ${q.sameText ? sql`coalesce(e.hash = q.h, false)` : sql`false`} AS same
        FROM q WHERE q.ns = d.ns AND (e.embedding <=> q.v) <= ${maxDistance}
        OFFSET 0
      ) p
      UNION ALL
      ${
        q.sameText
          ? sql`-- The indexed memories holding the probe's text, by the (user_id, namespace,
      -- content_hash) btree.
      SELECT q.i, h.id, 1 - (h.embedding <=> q.v), true
      FROM q JOIN sizes d ON d.ns = q.ns
      CROSS JOIN LATERAL (
        SELECT ${memories.id} AS id, ${memories.embedding} AS embedding FROM ${memories}
        WHERE ${scope} AND ${memories.namespace} = q.ns AND ${memories.contentHash} = q.h
          AND d.n > ${EXACT_SCAN_MAX} AND ${memories.ann}
        LIMIT ${q.k}
      ) h
      WHERE (h.embedding <=> q.v) <= ${maxDistance}
      UNION ALL`
          : sql``
      }
      SELECT q.i, a.id, a.similarity, false FROM q JOIN sizes d ON d.ns = q.ns
      CROSS JOIN LATERAL (
        SELECT ${memories.id} AS id, 1 - (${memories.embedding} <=> q.v) AS similarity
        FROM ${memories}
        WHERE ${annScope} AND ${memories.namespace} = q.ns AND d.n > ${EXACT_SCAN_MAX}
          AND ${annRows(q.userId)}
        ORDER BY ${memories.embedding} <=> q.v
        LIMIT ${q.k}
      ) a
      WHERE a.similarity >= ${q.minSimilarity}
    ),
    -- A memory found both by hash and through HNSW counts once.
    ranked AS (
      SELECT i, id, max(similarity) AS similarity,
        row_number() OVER (PARTITION BY i ORDER BY bool_or(same) DESC, max(similarity) DESC, id)
          AS rank
      FROM pairs GROUP BY i, id
    )
    -- Each kept pair's memory by its primary key. A plain join was planned from the pairs'
    -- estimate, hundreds of thousands, as a hash join over a full scan of the table (83 ms of
    -- a 168 ms deduplication at 30k rows, 500-700 ms at 1.1M). The LIMIT keeps Postgres from
    -- flattening the lateral lookup back into that join.
    SELECT ranked.i, ranked.similarity, ${q.columns}
    FROM ranked CROSS JOIN LATERAL (
      SELECT * FROM ${memories} WHERE ${memories.id} = ranked.id LIMIT 1
    ) m
    WHERE ranked.rank <= ${q.k}
    ORDER BY ranked.i, ranked.rank`;
}

/**
 * The probe relation of parallel arrays: probe numbers (from `first`), namespaces, vectors and
 * the texts' content hashes (for `sameText`).
 */
export function probesOf(
  namespaces: string[],
  vectors: number[][],
  hashes: string[],
  first = 0,
): SQL {
  return sql`
    SELECT i, ns, v::vector AS v, h
    FROM unnest(${sql.param(namespaces.map((_, i) => first + i))}::int[],
                ${sql.param(namespaces)}::text[],
                ${sql.param(vectors.map(vectorLiteral))}::text[],
                ${sql.param(hashes)}::text[]) AS u(i, ns, v, h)`;
}
