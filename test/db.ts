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
