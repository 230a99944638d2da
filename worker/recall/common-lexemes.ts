/**
 * Lexemes found in more than COMMON_LEXEME_SHARE of all memories, from Postgres's own
 * statistics (pg_stats.most_common_elems of the search column). Recall's approximate path
 * leaves them out of its keyword candidate search (candidates.ts): their posting lists are
 * long and they say little. They still count in the keyword signal of every candidate.
 * Without statistics (never analyzed) the list is empty and every lexeme is used.
 *
 * Kept per isolate for CACHE_MS: the statistics change only when (auto)ANALYZE runs. Read
 * inside recall's statement, the pg_stats view cost 1.1 ms of planning and 1.4 ms of
 * execution on every recall of a large wallet (24 ms of SQL at 10,000 memories among 1M).
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";

const COMMON_LEXEME_SHARE = 0.01;
const CACHE_MS = 5 * 60_000;

let cached: { lexemes: string[]; until: number } | undefined;

export async function commonLexemes(db: DbOrTx, now = Date.now()): Promise<string[]> {
  if (cached && now < cached.until) return cached.lexemes;
  const result = await db.execute<{ lexemes: string[] }>(sql`
    SELECT coalesce(array_agg(e.lexeme), '{}') AS lexemes
    FROM pg_stats s,
      unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, freq)
    WHERE s.schemaname = current_schema() AND s.tablename = 'memories'
      AND s.attname = 'search' AND e.lexeme IS NOT NULL AND e.freq > ${COMMON_LEXEME_SHARE}`);
  const lexemes = result.rows[0]?.lexemes ?? [];
  cached = { lexemes, until: now + CACHE_MS };
  return lexemes;
}

/** Forgets the kept list (tests that ANALYZE and want the new statistics at once). */
export function forgetCommonLexemes(): void {
  cached = undefined;
}
