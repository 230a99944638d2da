/**
 * Straight to the suite's Postgres, for what the API cannot do: backdate timestamps, seed
 * thousands of rows, read what a reference ranking needs. Each call opens its own connection
 * and closes it.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { connectDb, type Db } from "../worker/db/client";
import { workerTransport } from "../worker/db/tcp-socket";
import type { Wallet } from "./helpers";

export async function withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const handle = connectDb(env.DATABASE_URL, workerTransport(env));
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/** The users row of a wallet, which its first call to the API creates. */
export async function userIdOf(db: Db, w: Wallet): Promise<string> {
  const res = await db.execute<{ id: string }>(
    sql`SELECT id FROM users WHERE wallet = ${w.address.toLowerCase()}`,
  );
  const id = res.rows[0]?.id;
  if (!id) throw new Error("wallet has no user row");
  return id;
}

/**
 * Moves memories' expiry into the past, as time would: tests that waited for a 2-second
 * expiry broke on a loaded machine, where the calls meant to see the memory alive came late.
 */
export async function expireNow(ids: string[]): Promise<void> {
  await withDb((db) =>
    db.execute(
      sql`UPDATE memories SET expires_at = now() - interval '1 second' WHERE id = ANY(${sql.param(ids)}::uuid[])`,
    ),
  );
}
