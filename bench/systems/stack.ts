/**
 * The service under test: a database (embedded PGlite, or a scratch database created on the
 * DATABASE_URL server and dropped at the end, so the bench never touches your data) and
 * `wrangler dev` on the bench's port, metering off.
 */

import { type LocalDatabase, startLocalDatabase } from "../../local/db/start";
import { assertPortFree, type Service, startWrangler, waitForHealth } from "../../local/service";
import { GRAPH_MIN } from "../../worker/memories/ann";
import { log } from "../lib/report";

export interface Stack {
  baseUrl: string;
  /** Wallets above this many memories go into the HNSW graph (Env.GRAPH_MIN, ann.ts). */
  graphMin: number;
  database: LocalDatabase;
  /** "embedded PGlite" or "PostgreSQL server". */
  dbLabel: string;
  stop(): Promise<void>;
}

/**
 * `serverUrl`: a PostgreSQL server to use (default DATABASE_URL); none means embedded.
 * `vars`: more Worker variables (the run's embedder, embedding.ts); without
 * them the Worker embeds with wrangler.toml's default, the lexical embedder.
 */
export async function startStack(
  port: number,
  { serverUrl, vars = {} }: { serverUrl?: string; vars?: Record<string, string> } = {
    serverUrl: process.env.DATABASE_URL,
  },
): Promise<Stack> {
  const baseUrl = `http://127.0.0.1:${port}`;
  await assertPortFree(baseUrl);
  const started = Date.now();
  const database = await startLocalDatabase({
    databaseUrl: serverUrl ? await scratchDatabase(serverUrl) : undefined,
    dataDir: "memory://",
    log,
  });
  let service: Service | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    service?.stop();
    await database.stop();
    if (serverUrl) await dropScratch(serverUrl, database.url);
  };
  try {
    service = await startWrangler({
      port,
      quiet: !process.env.BENCH_VERBOSE,
      vars: {
        ...database.workerVars,
        JWT_SECRET: "bench-secret-bench-secret-bench-secret-00",
        // The bench sends far more than 100 requests a minute per wallet; limits are measured
        // by the tests, not here. (The Meter Durable Object call is therefore not in these
        // figures: about one local RPC per request.)
        METERING: "off",
        // The changes part's webhook receiver listens on 127.0.0.1, as in npm run dev.
        WEBHOOKS_ALLOW_LOCAL: "on",
        // The wallet size from which memories go into the HNSW graph (worker/memories/ann.ts),
        // to compare another threshold: GRAPH_MIN=… npm run bench.
        ...(process.env.GRAPH_MIN ? { GRAPH_MIN: process.env.GRAPH_MIN } : {}),
        ...vars,
      },
    });
    await waitForHealth(baseUrl);
  } catch (err) {
    await stop();
    throw err;
  }
  const dbLabel = database.kind === "embedded" ? "embedded PGlite" : "PostgreSQL server";
  log(
    `service up on ${baseUrl} against ${dbLabel} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  const graphMin = Number(process.env.GRAPH_MIN || GRAPH_MIN);
  return { baseUrl, graphMin, database, dbLabel, stop };
}

async function scratchDatabase(url: string): Promise<string> {
  const name = `memory_bench_${process.pid}`;
  const target = new URL(url);
  target.pathname = `/${name}`;
  await withAdmin(url, `CREATE DATABASE ${name}`);
  log(`scratch database ${name} created`);
  return target.toString();
}

async function dropScratch(url: string, scratchUrl: string): Promise<void> {
  const name = new URL(scratchUrl).pathname.slice(1);
  await withAdmin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(
    () => log(`scratch database ${name} dropped`),
    (err) => log(`could not drop ${name}: ${err instanceof Error ? err.message : err}`),
  );
}

async function withAdmin(url: string, statement: string): Promise<void> {
  const { proxiedClient, startWsProxy } = await import("../../local/db/ws-proxy");
  const proxy = await startWsProxy(0);
  const client = proxiedClient(url, proxy);
  try {
    await client.connect();
    await client.query(statement);
  } finally {
    await client.end();
    await proxy.close();
  }
}
