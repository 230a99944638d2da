/**
 * The local database stack shared by `npm run dev`, `npm test` and the benchmark:
 * an embedded Postgres (PGlite + pgvector served on a TCP port) unless DATABASE_URL names a
 * server, a WebSocket proxy in front of it for the Neon driver in Node (the migrations, the
 * benchmark's seeding) and for the Worker's `websocket` transport, and the migrations applied.
 * The Worker reaches a local database over Workers TCP sockets (`DATABASE_TRANSPORT=tcp`):
 * through the proxy a connection cost 5-7 ms before its first query, directly ~1 ms.
 */
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { neonConfig } from "@neondatabase/serverless";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import ws from "ws";
import { connectDb } from "../../worker/db/client";
import { PGliteFront } from "./front";
import { startWsProxy } from "./ws-proxy";

export const MIGRATIONS_FOLDER = new URL("../../schema/migrations", import.meta.url).pathname;

export interface LocalDatabase {
  /** Postgres URL the Worker is given as DATABASE_URL. */
  url: string;
  /** host:port of the WebSocket proxy, for the driver in Node (none for Neon). */
  wsProxy?: string;
  /**
   * The Worker's variables for this database: DATABASE_URL, and for a local one
   * DATABASE_TRANSPORT (`tcp` unless the caller asks for `websocket`) and NEON_WS_PROXY.
   */
  workerVars: Record<string, string>;
  kind: "embedded" | "server";
  stop(): Promise<void>;
}

export interface LocalDatabaseOptions {
  /** DATABASE_URL of a real server; absent means the embedded default. */
  databaseUrl?: string;
  /** Folder for embedded data; "memory://" keeps it in memory. */
  dataDir: string;
  /** The Worker's transport to a local database (Env.DATABASE_TRANSPORT); default tcp. */
  transport?: string;
  /** TCP port for the embedded server; 0 picks a free one. */
  pgPort?: number;
  proxyPort?: number;
  log?: (line: string) => void;
}

function isLocalHost(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}

export async function startLocalDatabase(opts: LocalDatabaseOptions): Promise<LocalDatabase> {
  const log = opts.log ?? (() => {});
  const stops: Array<() => Promise<void>> = [];
  let url: string;
  let kind: LocalDatabase["kind"];

  if (opts.databaseUrl) {
    url = opts.databaseUrl;
    kind = "server";
    log(`using Postgres at ${new URL(url).host}`);
  } else {
    if (opts.dataDir !== "memory://") mkdirSync(opts.dataDir, { recursive: true });
    log(`starting embedded Postgres (PGlite + pgvector) in ${opts.dataDir}`);
    const pg = await PGlite.create({ dataDir: opts.dataDir, extensions: { vector } });
    await pg.exec("CREATE EXTENSION IF NOT EXISTS vector");
    // Served by our own front, not pglite-socket, which interleaves concurrent clients'
    // messages on PGlite's one session (local/db/front.ts says how).
    const front = new PGliteFront({
      db: pg,
      port: opts.pgPort ?? 0,
      // PGlite is one session shared by every client, so database-level settings from the
      // migrations (ALTER DATABASE … SET) never reach it: they are the session's defaults.
      // memory_service.ef_search_max: recall's deeper search of large wallets costs five times
      // more in WebAssembly than on a server (worker/memories/ann.ts, efSearchCap).
      // memory_service.index_chunk: the indexer's statements stay short (2-9 ms a row in
      // WebAssembly), since every other client waits for each one (ann.ts, indexChunk).
      sessionDefaults: [
        "SET hnsw.iterative_scan = relaxed_order",
        "SET hnsw.ef_search = 100",
        "SET memory_service.ef_search_max = 100",
        "SET memory_service.index_chunk = 10",
      ].join("; "),
      log: (line) => log(`embedded Postgres: ${line}`),
    });
    const port = await front.start();
    url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    kind = "embedded";
    stops.push(async () => {
      await front.stop();
      await pg.close();
    });
  }

  let wsProxy: string | undefined;
  if (isLocalHost(url)) {
    const proxy = await startWsProxy(opts.proxyPort ?? 0);
    wsProxy = `127.0.0.1:${proxy.port}`;
    stops.unshift(() => proxy.close());
  }

  await applyMigrations(url, wsProxy, { endSession: kind === "server" });
  log("migrations applied");

  return {
    url,
    wsProxy,
    workerVars: {
      ...(wsProxy
        ? { DATABASE_URL: url, DATABASE_TRANSPORT: opts.transport || "tcp", NEON_WS_PROXY: wsProxy }
        : { DATABASE_URL: url }),
      // One session for every client (Env.DATABASE_SERIAL): stores probe in short statements.
      ...(kind === "embedded" ? { DATABASE_SERIAL: "on" } : {}),
    },
    kind,
    async stop() {
      for (const stop of stops) await stop();
    },
  };
}

export async function applyMigrations(
  url: string,
  wsProxy?: string,
  { endSession = false }: { endSession?: boolean } = {},
): Promise<void> {
  neonConfig.webSocketConstructor = ws;
  const { db, close } = connectDb(url, { wsProxy });
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    // The migrations set database-level defaults (ALTER DATABASE … SET jit = off,
    // hnsw.ef_search, hnsw.iterative_scan), which only sessions started after them get.
    // Through a pooler (PgBouncer, Neon's pooled endpoint) this session goes back to the pool
    // and serves the Worker next, without them: a store's deduplication query spent 650 ms
    // in JIT compilation on it (auto_explain), and filtered HNSW scans ran without iterative
    // scan. So the session ends here. (Never on PGlite: its one session is the database.)
    if (endSession) {
      await db.execute(sql`SELECT pg_terminate_backend(pg_backend_pid())`).catch(() => {});
    }
  } finally {
    await close();
  }
}
