import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import * as schema from "../../schema/tables";

export type Db = NeonDatabase<typeof schema>;
/** A transaction handle; domain functions accept either a Db or a Tx. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Points the Neon driver at a local WebSocket-to-TCP proxy (see scripts/ws-proxy.ts) instead
 * of Neon's own endpoint. Neon in production needs none of this; a plain Postgres (embedded
 * PGlite or a real server) does, because the driver only speaks Postgres over WebSocket.
 * The settings are module-level in the driver, so they are applied once per isolate.
 */
let configuredProxy: string | undefined;

/**
 * The driver batches a connection's writes and sends them from a timer (coalesceWrites). When
 * the connection closed in between, WebSocket.send threw from that timer, an uncaught
 * exception outside any request. The query that wrote already fails with the close, so a
 * send on a closing or closed socket is dropped instead.
 */
function guardedWebSocket(): typeof WebSocket | undefined {
  if (typeof WebSocket === "undefined") return undefined;
  return class GuardedWebSocket extends WebSocket {
    override send(data: Parameters<WebSocket["send"]>[0]): void {
      if (this.readyState === WebSocket.CLOSING || this.readyState === WebSocket.CLOSED) return;
      super.send(data);
    }
  };
}
neonConfig.webSocketConstructor ??= guardedWebSocket();
function useLocalProxy(proxy: string): void {
  if (configuredProxy === proxy) return;
  neonConfig.wsProxy = (host, port) => `${proxy}/v2?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  // With pipelining on, a plain Postgres answers "invalid frontend message type 112".
  neonConfig.pipelineConnect = false;
  configuredProxy = proxy;
}

export interface DbHandle {
  db: Db;
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

export function connectDb(
  databaseUrl: string,
  wsProxy?: string,
  /** 0 for none: maintenance scripts (an index build) may run for minutes. */
  queryTimeoutMs = QUERY_TIMEOUT_MS,
): DbHandle {
  if (wsProxy) useLocalProxy(wsProxy);
  const pool = new Pool({
    connectionString: databaseUrl,
    max: 4,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
  });
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
  return { db, close };
}
