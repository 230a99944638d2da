import { sql } from "drizzle-orm";
import type { DbOrTx } from "./db/client";
import { ApiError } from "./errors";
import { BoundedMap } from "./lib/bounded-map";

/** wallet → user id; a user row is never deleted or re-keyed, so this never goes stale. */
const userIds = new BoundedMap<string, string>(10_000);

/**
 * The user id of a wallet, creating the user on first sight. One round trip, and no write
 * for a known wallet (an upsert would leave a dead row version on every request).
 *
 * Every other query is scoped by this id, so a wrong one would show a wallet another
 * wallet's memories. The row must prove it is this wallet's before the id is used or
 * cached: a database front that mixed up two clients' answers (as the embedded one once
 * did) then fails one request instead of pinning a wallet to a stranger's data.
 */
export async function ensureUser(db: DbOrTx, wallet: string): Promise<string> {
  const lower = wallet.toLowerCase();
  const cached = userIds.get(lower);
  if (cached) return cached;
  const result = await db.execute<{ id: string; wallet: string }>(sql`
    WITH found AS (SELECT id, wallet FROM users WHERE wallet = ${lower}),
    inserted AS (
      INSERT INTO users (wallet) SELECT ${lower} WHERE NOT EXISTS (SELECT 1 FROM found)
      ON CONFLICT (wallet) DO UPDATE SET wallet = excluded.wallet
      RETURNING id, wallet
    )
    SELECT id, wallet FROM found UNION ALL SELECT id, wallet FROM inserted LIMIT 1`);
  const row = result.rows[0];
  if (!row || row.wallet !== lower) {
    // No wallet in the log line: only whether a row came back at all.
    console.error(
      JSON.stringify({ event: "user_lookup_mismatch", row: row ? "other wallet" : "none" }),
    );
    throw new ApiError("INTERNAL_ERROR", "Could not resolve the wallet's account; try again");
  }
  userIds.set(lower, row.id);
  return row.id;
}
