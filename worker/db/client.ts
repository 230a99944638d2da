import { Pool } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import * as schema from "../../schema/tables";
import { clientFor, type Transport } from "./transport";

export type Db = NeonDatabase<typeof schema>;
/** A transaction handle; domain functions accept either a Db or a Tx. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  /**
   * Opens a connection now and leaves it idle in the pool, for the next query: its round
   * trips (TCP, TLS, start-up, password) then overlap other work. Never rejects: a database
   * that cannot be reached fails the query that follows, which answers 503.
   */
  connect(): Promise<void>;
  /** Closes the pool's connections; call it once the request is done (waitUntil). */
  close(): Promise<void>;
}

/**
 * Every connection attempt and every query is bounded, so an unreachable or stuck database
 * gives the client a prompt 503 (db/unavailable.ts) instead of a request that hangs until
 * the runtime cancels it. Healthy queries take milliseconds; the largest (a 100-item batch
 * with deduplication, an export page) well under a second.
 * The connect timeout is a timer of the isolate, which also runs every other request's
 * JavaScript: with 5 s, 100 requests at once on two busy cores timed out connections the
 * server had already accepted (its answer was waiting behind the other requests' work) and
 * answered 503 with the database healthy. A database that is down refuses at once; 10 s
 * still bounds one that hangs, and covers a Neon compute waking from suspension.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
export const QUERY_TIMEOUT_MS = 15_000;
/** pool.end() waits for a socket "end" event that a dead connection never sends. */
const CLOSE_TIMEOUT_MS = 2_000;

export interface ConnectOptions extends Transport {
  /** 0 for none: maintenance scripts (an index build) may run for minutes. */
  queryTimeoutMs?: number;
}

export function connectDb(databaseUrl: string, options: ConnectOptions = {}): DbHandle {
  const { queryTimeoutMs = QUERY_TIMEOUT_MS, ...transport } = options;
  const pool = new Pool({
    connectionString: databaseUrl,
    max: 4,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
  });
  // The driver's Pool sets its Client class in its constructor; pg-pool reads it per connection.
  (pool as unknown as { Client: unknown }).Client = clientFor(transport);
  // A dropped connection must not crash the isolate; the query that used it already failed.
  // The pool's own listener covers idle clients only: a client checked out for a
  // transaction that loses its connection between two queries emits "error" on itself, and
  // with no listener that is an uncaught exception that restarts the Worker mid-request.
  pool.on("error", () => {});
  pool.on("connect", (client: { on(event: "error", listener: () => void): unknown }) =>
    client.on("error", () => {}),
  );
  const db = drizzle({ client: pool, schema });
  const close = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    });
    await Promise.race([pool.end().catch(() => undefined), giveUp]);
    clearTimeout(timer);
  };
  let opening: Promise<void> | undefined;
  const connect = () => {
    opening ??= pool.connect().then(
      (client) => client.release(),
      () => {},
    );
    return opening;
  };
  return { db, connect, close };
}
