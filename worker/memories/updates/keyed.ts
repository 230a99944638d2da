/**
 * A store's replacement candidates by fact key (docs/knowledge-updates.md): for each new
 * memory whose words name an attribute family (detect.ts, factKey), the latest current
 * memories of its namespace with the same key, whatever their similarity. The nearest
 * neighbours find a replaced fact by meaning; the key finds it by what it is about, which is
 * all a lexical embedder can offer when the new wording shares no word with the old.
 *
 * A subquery of the duplicate probe's statement (memories/store.ts): no round trip of its own.
 * memories_fact_key_idx answers it from the wallet's keyed rows of one namespace and key.
 */
import { type SQL, sql } from "drizzle-orm";
import { memories } from "../../../schema/tables";
import { liveMemory } from "../rows";
import { isCurrent } from "./current";

/** A memory of a new one's key, as the probe returns it. */
export interface Keyed {
  i: number;
  id: string;
  content: string;
  pinned: boolean;
  immutable: boolean;
  session_id: string | null;
  agent_id: string | null;
  occurred_at: string;
  updated_at: string;
}

/** Memories of one key judged per new memory: the latest to occur. */
export const KEYED_CANDIDATES = 3;

/**
 * As one JSON column: rows `(i, id, content, pinned, immutable, session_id, agent_id,
 * occurred_at, updated_at)` for the probes numbered from `first` that have a key.
 */
export function keyedCandidates(
  userId: string,
  first: number,
  namespaces: string[],
  keys: Array<string | null>,
): SQL {
  return sql`(SELECT coalesce(json_agg(k), '[]') FROM (
    SELECT p.i, c.id, c.content, c.pinned, c.immutable, c.session_id, c.agent_id,
      c.occurred_at, c.updated_at::text AS updated_at
    FROM unnest(${sql.param(namespaces.map((_, i) => first + i))}::int[],
      ${sql.param(namespaces)}::text[], ${sql.param(keys)}::text[]) AS p(i, ns, key)
    CROSS JOIN LATERAL (
      SELECT * FROM ${memories}
      WHERE ${liveMemory({ userId })} AND ${memories.namespace} = p.ns
        AND ${memories.factKey} = p.key AND ${isCurrent(memories.id, memories.occurredAt)}
      ORDER BY ${memories.occurredAt} DESC, ${memories.id}
      LIMIT ${KEYED_CANDIDATES}
    ) c
    WHERE p.key IS NOT NULL
  ) k)`;
}
