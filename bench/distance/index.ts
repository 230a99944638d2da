/**
 * The distance part: what each operation costs when the database is D ms away, as it is for
 * Workers far from their Neon region, and how many Worker↔database round trips it makes.
 * Each layout runs the Worker with the transport production would use, through a delay proxy
 * (delay-proxy.ts) that adds D ms to every chunk each way and counts the exchanges:
 *
 * 1. pooler beside the database (Neon's pooled endpoint), over a WebSocket, and over TCP:
 *      Worker --WebSocket--> [delay] --> ws-proxy --> PgBouncer --> PostgreSQL
 *      Worker --tcp--> [delay] --> PgBouncer --> PostgreSQL
 * 2. pooler beside the Worker (what Hyperdrive gives): its server connections stay open, so a
 *    request's connect is local:
 *      Worker --tcp--> PgBouncer --> [delay] --> PostgreSQL
 *
 * Each layout's Worker is measured "near" (the same path, delay 0) then "far" (delay D), each
 * with a fresh wallet. Needs a PostgreSQL server on loopback (DATABASE_URL, directly or through
 * a pooler: the server behind it is asked for its own address) and /usr/sbin/pgbouncer. Its
 * tables live in a scratch database, dropped at the end; the PgBouncers are its own.
 */
import { applyMigrations } from "../../local/db/start";
import { proxiedClient, startWsProxy, type WsProxy } from "../../local/db/ws-proxy";
import { assertPortFree, startWrangler, waitForHealth } from "../../local/service";
import { log, machine } from "../lib/report";
import { type DelayProxy, startDelayProxy } from "./delay-proxy";
import { measureOperations, OPERATION_NAMES, type OpSummary, summarize } from "./ops";
import { type PgBouncer, type PgBouncerLogin, startPgBouncer } from "./pgbouncer";
import { layoutTable, type OpResult } from "./report";

export interface DistanceOptions {
  /** A PostgreSQL server, or a pooler in front of one, on loopback. */
  serverUrl: string;
  /** wrangler dev's port. */
  port: number;
  delayMs: number;
  rounds: number;
  /** Where the part registers what it starts, so that an interrupted run stops it too. */
  cleanups: Cleanups;
}

/**
 * Stops, each run once: by the part as it goes, or all at once (the end, SIGINT). A stop
 * already under way is awaited, not skipped, so that the process exits only after it (the
 * scratch database dropped, not left behind).
 */
export class Cleanups {
  private pending: Array<() => Promise<void>> = [];
  add(stop: () => Promise<void>): () => Promise<void> {
    let running: Promise<void> | undefined;
    const once = () => {
      running ??= stop()
        .catch((err) => log(`cleanup failed: ${err instanceof Error ? err.message : err}`))
        .finally(() => {
          this.pending = this.pending.filter((f) => f !== once);
        });
      return running;
    };
    this.pending.push(once);
    return once;
  }
  async runAll(): Promise<void> {
    for (const stop of [...this.pending].reverse()) await stop();
  }
}

interface Setup {
  login: PgBouncerLogin;
  database: string;
  serverPort: number;
  wsProxy: WsProxy;
  /** PgBouncer beside the database: in front of the server, with no delay between them. */
  besideDatabase: PgBouncer;
}

interface Layout {
  title: string;
  path: string;
  /** Starts the layout's own pieces, their stops registered in `cleanups`. */
  build(s: Setup, cleanups: Cleanups): Promise<{ proxy: DelayProxy; vars: Record<string, string> }>;
}

const LAYOUTS: Layout[] = [
  {
    title: "pooler beside the database, WebSocket (Neon's pooled endpoint)",
    path: "Worker --WebSocket--> [delay] --> ws-proxy --> PgBouncer --> PostgreSQL",
    build: async (s, cleanups) => {
      const proxy = await delayProxy(cleanups, s.wsProxy.port);
      const vars = {
        DATABASE_URL: pgUrl(s.login, s.besideDatabase.port, s.database),
        DATABASE_TRANSPORT: "websocket",
        NEON_WS_PROXY: `127.0.0.1:${proxy.port}`,
      };
      return { proxy, vars };
    },
  },
  {
    title: "pooler beside the database, TCP",
    path: "Worker --tcp--> [delay] --> PgBouncer --> PostgreSQL",
    build: async (s, cleanups) => {
      const proxy = await delayProxy(cleanups, s.besideDatabase.port);
      const vars = {
        DATABASE_URL: pgUrl(s.login, proxy.port, s.database),
        DATABASE_TRANSPORT: "tcp",
      };
      return { proxy, vars };
    },
  },
  {
    title: "pooler beside the Worker, TCP (what Hyperdrive gives)",
    path: "Worker --tcp--> PgBouncer --> [delay] --> PostgreSQL",
    build: async (s, cleanups) => {
      const proxy = await delayProxy(cleanups, s.serverPort);
      const bouncer = await startPgBouncer(proxy.port, s.login);
      cleanups.add(bouncer.stop);
      const vars = {
        DATABASE_URL: pgUrl(s.login, bouncer.port, s.database),
        DATABASE_TRANSPORT: "tcp",
      };
      return { proxy, vars };
    },
  },
];

async function delayProxy(cleanups: Cleanups, targetPort: number): Promise<DelayProxy> {
  const proxy = await startDelayProxy(targetPort);
  cleanups.add(() => proxy.close());
  return proxy;
}

const pgUrl = (login: PgBouncerLogin, port: number, database: string) =>
  `postgres://${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@127.0.0.1:${port}/${database}`;

export async function runDistance(opts: DistanceOptions) {
  const results: Array<{ layout: Layout; ops: OpResult[] }> = [];
  try {
    const setup = await prepare(opts);
    for (const [index, layout] of LAYOUTS.entries()) {
      results.push({ layout, ops: await measureLayout(layout, index, setup, opts) });
    }
  } finally {
    await opts.cleanups.runAll();
  }
  return {
    tables: results.map((r, i) => layoutTable(r.layout, r.ops, opts, i === results.length - 1)),
    json: {
      when: new Date().toISOString(),
      database: "PostgreSQL server",
      embedder: "local (lexical)",
      delay_ms: opts.delayMs,
      rounds: opts.rounds,
      machine: machine(),
      layouts: results.map((r) => ({
        title: r.layout.title,
        path: r.layout.path,
        operations: r.ops,
      })),
    },
  };
}

/** The layout's Worker near then far; its pieces are stopped before the next layout's start. */
async function measureLayout(layout: Layout, index: number, setup: Setup, opts: DistanceOptions) {
  const own = new Cleanups();
  const stopOwn = opts.cleanups.add(() => own.runAll());
  try {
    return await nearAndFar(layout, index, setup, opts, own);
  } finally {
    await stopOwn();
  }
}

async function nearAndFar(
  layout: Layout,
  index: number,
  setup: Setup,
  opts: DistanceOptions,
  own: Cleanups,
): Promise<OpResult[]> {
  const { proxy, vars } = await layout.build(setup, own);
  const baseUrl = await startWorker(opts.port, vars, own);
  log(`distance: ${layout.title}: ${layout.path}`);
  const sides: Array<Map<string, OpSummary>> = [];
  for (const delayMs of [0, opts.delayMs]) {
    proxy.delayMs = delayMs;
    const started = Date.now();
    const samples = await measureOperations(baseUrl, proxy, {
      rounds: opts.rounds,
      seed: 1000 + 10 * index + sides.length,
    });
    const side = new Map([...samples].map(([name, list]) => [name, summarize(list)]));
    sides.push(side);
    const line = [...side].map(([name, s]) => `${shortName(name)} ${s.p50}/${s.exchanges}`);
    log(
      `  ${delayMs ? `far (${delayMs} ms)` : "near"} in ${((Date.now() - started) / 1000).toFixed(0)} s, p50 ms/exchanges: ${line.join(", ")}`,
    );
  }
  const [near, far] = sides;
  return OPERATION_NAMES.flatMap((name): OpResult[] => {
    const n = near?.get(name);
    const f = far?.get(name);
    if (!n || !f) return [];
    const implied = opts.delayMs > 0 ? (f.p50 - n.p50) / (2 * opts.delayMs) : Number.NaN;
    return [{ name, near: n, far: f, implied: Math.round(implied * 10) / 10 }];
  });
}

/** An operation's name in the progress line: without its detail in parentheses, but "(shared)". */
const shortName = (name: string) => name.replace(/ \((?!shared\)).*\)$/, "");

/** Starts wrangler dev on `port` with the layout's variables; a stop is registered. */
async function startWorker(port: number, vars: Record<string, string>, cleanups: Cleanups) {
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitPortFree(baseUrl);
  const service = await startWrangler({
    port,
    quiet: !process.env.BENCH_VERBOSE,
    vars: {
      JWT_SECRET: "bench-secret-bench-secret-bench-secret-00",
      // No rate limits (the part sends hundreds of requests a wallet), no Meter call.
      METERING: "off",
      // The lexical embedder and the rules provider: no model's time, the database path alone.
      EMBEDDER: "local",
      LLM_PROVIDER: "rules",
      // Every PgBouncer here asks for a cleartext password, as Neon's endpoint does, where the
      // driver always sends it with the start-up: the same here (one round trip less).
      DATABASE_PIPELINE_CONNECT: "password",
      ...vars,
    },
  });
  const exited = new Promise((resolve) => service.child.once("exit", resolve));
  cleanups.add(async () => {
    service.stop();
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  });
  await waitForHealth(baseUrl);
  return baseUrl;
}

/** The previous layout's wrangler may still hold the port for a moment after its stop. */
async function waitPortFree(baseUrl: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await assertPortFree(baseUrl);
    } catch (err) {
      if (attempt >= 30) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * The server behind DATABASE_URL (asked for its own address, so a pooler's URL works too), a
 * scratch database on it with the migrations, the WebSocket proxy and the PgBouncer beside it.
 */
async function prepare(opts: DistanceOptions): Promise<Setup> {
  const { cleanups } = opts;
  const url = new URL(opts.serverUrl);
  const login = {
    user: decodeURIComponent(url.username) || "postgres",
    password: decodeURIComponent(url.password) || "bench",
  };
  const wsProxy = await startWsProxy(0);
  cleanups.add(() => wsProxy.close());
  const server = await query<{ host: string | null; port: number | null; version: string }>(
    opts.serverUrl,
    wsProxy,
    "SELECT host(inet_server_addr()) AS host, inet_server_port() AS port, current_setting('server_version') AS version",
  );
  if (server.host !== "127.0.0.1" || !server.port) {
    throw new Error(
      `the distance part needs a PostgreSQL server on 127.0.0.1 (got ${server.host})`,
    );
  }
  const admin = new URL(opts.serverUrl);
  admin.port = String(server.port);
  const database = `memory_distance_${process.pid}`;
  await query(admin.toString(), wsProxy, `CREATE DATABASE ${database}`);
  cleanups.add(async () => {
    await query(admin.toString(), wsProxy, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    log(`scratch database ${database} dropped`);
  });
  const scratch = new URL(admin.toString());
  scratch.pathname = `/${database}`;
  await applyMigrations(scratch.toString(), `127.0.0.1:${wsProxy.port}`);
  log(
    `distance: scratch database ${database} on PostgreSQL ${server.version} (127.0.0.1:${server.port}), migrated`,
  );
  const besideDatabase = await startPgBouncer(server.port, login);
  cleanups.add(besideDatabase.stop);
  return { login, database, serverPort: server.port, wsProxy, besideDatabase };
}

async function query<T>(url: string, wsProxy: WsProxy, statement: string): Promise<T> {
  const client = proxiedClient(url, wsProxy);
  try {
    await client.connect();
    const result = await client.query(statement);
    return result.rows[0] as T;
  } finally {
    await client.end();
  }
}
