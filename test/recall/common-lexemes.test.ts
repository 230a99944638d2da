/** recall/common-lexemes.ts: Postgres's most common lexemes of memories, kept per isolate. */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { commonLexemes, forgetCommonLexemes } from "../../worker/recall/common-lexemes";
import { withDb } from "../db";

describe("commonLexemes", () => {
  it("reads the search column's elements above 1% from pg_stats, then keeps them 5 minutes", async () => {
    await withDb(async (db) => {
      await db.execute(sql`ANALYZE memories`);
      const stats = await db.execute<{ lexeme: string; freq: number }>(sql`
        SELECT e.lexeme, e.freq FROM pg_stats s,
          unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, freq)
        WHERE s.tablename = 'memories' AND s.attname = 'search' AND e.lexeme IS NOT NULL`);
      const expected = stats.rows.filter((r) => r.freq > 0.01).map((r) => r.lexeme);

      forgetCommonLexemes();
      const now = Date.now();
      const read = await commonLexemes(db, now);
      expect([...read].sort()).toEqual([...expected].sort());
      // Kept: the same list without a query until the 5 minutes are over.
      expect(await commonLexemes(db, now + 4 * 60_000)).toBe(read);
      expect(await commonLexemes(db, now + 6 * 60_000)).not.toBe(read);
    });
  });
});
