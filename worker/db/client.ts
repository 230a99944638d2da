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

export function connectDb(databaseUrl: string, wsProxy?: string): DbHandle {
  if (wsProxy) useLocalProxy(wsProxy);
  const pool = new Pool({ connectionString: databaseUrl, max: 4 });
  // A dropped connection must not crash the isolate; the query that used it already failed.
  pool.on("error", () => {});
  const db = drizzle({ client: pool, schema });
  return { db, close: () => pool.end() };
}
