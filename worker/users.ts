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
  const [id] = await ensureUsers(db, [wallet]);
  return id as string;
}

/**
 * The user ids of several wallets (a grantee and the owner it names), in order, in one round
 * trip for those not cached yet.
 */
export async function ensureUsers(db: DbOrTx, wallets: string[]): Promise<string[]> {
  const lower = wallets.map((w) => w.toLowerCase());
  const ids = new Map<string, string>();
  for (const w of lower) {
    const cached = userIds.get(w);
    if (cached) ids.set(w, cached);
  }
  const missing = [...new Set(lower.filter((w) => !ids.has(w)))];
  if (missing.length > 0) {
    const result = await db.execute<{ id: string; wallet: string }>(sql`
      WITH w AS (SELECT unnest(${sql.param(missing)}::text[]) AS wallet),
      found AS (SELECT u.id, u.wallet FROM users u JOIN w ON u.wallet = w.wallet),
      inserted AS (
        INSERT INTO users (wallet)
        SELECT w.wallet FROM w WHERE NOT EXISTS (SELECT 1 FROM found f WHERE f.wallet = w.wallet)
        ON CONFLICT (wallet) DO UPDATE SET wallet = excluded.wallet
        RETURNING id, wallet
      )
      SELECT id, wallet FROM found UNION ALL SELECT id, wallet FROM inserted`);
    for (const wallet of missing) {
      const row = result.rows.find((r) => r.wallet === wallet);
      if (!row) {
        // No wallet in the log line: only that its row did not come back.
        console.error(JSON.stringify({ event: "user_lookup_mismatch", row: "none" }));
        throw new ApiError("INTERNAL_ERROR", "Could not resolve the wallet's account; try again");
      }
      userIds.set(wallet, row.id);
      ids.set(wallet, row.id);
    }
  }
  return lower.map((w) => ids.get(w) as string);
}
