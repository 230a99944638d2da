import { sql } from "drizzle-orm";
import type { DbOrTx } from "./db/client";
import { BoundedMap } from "./lib/bounded-map";

/** wallet → user id; a user row is never deleted or re-keyed, so this never goes stale. */
const userIds = new BoundedMap<string, string>(10_000);

/**
 * The user id of a wallet, creating the user on first sight. One round trip, and no write
 * for a known wallet (an upsert would leave a dead row version on every request).
 */
export async function ensureUser(db: DbOrTx, wallet: string): Promise<string> {
  const lower = wallet.toLowerCase();
  const cached = userIds.get(lower);
  if (cached) return cached;
  const result = await db.execute<{ id: string }>(sql`
    WITH found AS (SELECT id FROM users WHERE wallet = ${lower}),
    inserted AS (
      INSERT INTO users (wallet) SELECT ${lower} WHERE NOT EXISTS (SELECT 1 FROM found)
      ON CONFLICT (wallet) DO UPDATE SET wallet = excluded.wallet
      RETURNING id
    )
    SELECT id FROM found UNION ALL SELECT id FROM inserted LIMIT 1`);
  const row = result.rows[0];
  if (!row) throw new Error("user lookup returned no row");
  userIds.set(lower, row.id);
  return row.id;
}
