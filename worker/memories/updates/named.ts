/**
 * The memories a store names in `supersedes` (docs/knowledge-updates.md): each must be a live
 * memory the caller may write, checked once before the embedding (so a refused store costs no
 * paid work) and again in the duplicate probe's statement, which also finds each one's current
 * version (namedHeads): a new fact replaces what is current, so two stores naming one memory
 * leave one chain.
 */
import { type SQL, sql } from "drizzle-orm";
import { memories } from "../../../schema/tables";
import type { DomainContext } from "../../context";
import { type ApiError, notFound } from "../../errors";
import { isLiveAs, liveMemory } from "../rows";
import { writeRefusalOf } from "../write-refusal";

/**
 * A memory named in `supersedes` that the caller may write (`named`), and the current version
 * of it that the new memory replaces (`id`, the named one unless it is replaced already).
 */
export interface NamedHead {
  named: string;
  id: string;
  namespace: string;
}

/** Links followed from a named memory to its current version (a bound, in case of a cycle). */
const MAX_CHAIN = 32;

/**
 * As one JSON column: each named memory the caller may write, with the last live link of the
 * chain that replaced it (itself when current); a name missing from it may not be replaced.
 */
export function namedHeads(ctx: DomainContext, named: string[]): SQL {
  return sql`(WITH RECURSIVE chain(named, id, depth) AS (
      SELECT n, n, 0 FROM unnest(${sql.param(named)}::uuid[]) AS n
      UNION ALL
      SELECT c.named, r.source_id, c.depth + 1 FROM chain c
      JOIN relations r ON r.target_id = c.id AND r.relation_type = 'supersedes'
      JOIN memories s ON s.id = r.source_id
        AND ${isLiveAs("s")}
      WHERE c.depth < ${MAX_CHAIN}
    )
    SELECT coalesce(json_agg(json_build_object('named', h.named, 'id', h.id,
      'namespace', h.namespace)), '[]')
    FROM (
      SELECT DISTINCT ON (c.named) c.named, ${memories.id} AS id, ${memories.namespace} AS namespace
      FROM chain c JOIN ${memories} ON ${memories.id} = c.id
      WHERE ${liveMemory(ctx)}
      ORDER BY c.named, c.depth DESC, ${memories.occurredAt} DESC, ${memories.id}
    ) h
    -- The named memory itself must be the caller's to write, not only its version.
    WHERE EXISTS (SELECT 1 FROM ${memories} WHERE ${memories.id} = h.named AND ${liveMemory(ctx)})
  )`;
}

/** Throws unless every id is a live memory the caller may write (unreplaceable's error). */
export async function assertReplaceable(ctx: DomainContext, named: string[]): Promise<void> {
  const found = await ctx.db.execute<{ id: string }>(
    sql`SELECT ${memories.id} AS id FROM ${memories}
      WHERE ${memories.id} = ANY(${sql.param(named)}::uuid[]) AND ${liveMemory(ctx)}`,
  );
  const ids = new Set(found.rows.map((r) => r.id));
  const missing = named.find((id) => !ids.has(id));
  if (missing) throw await unreplaceable(ctx, missing);
}

/**
 * Why a memory named in `supersedes` cannot be replaced: through a read-only grant, 403;
 * else the 404 of any missing memory, whether or not it is another wallet's.
 */
export async function unreplaceable(ctx: DomainContext, id: string): Promise<ApiError> {
  const refusal = ctx.grant ? await writeRefusalOf(ctx, id) : undefined;
  return refusal?.code === "FORBIDDEN" ? refusal : notFound(`Memory ${id} named in supersedes`);
}
