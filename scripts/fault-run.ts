/**
 * Fault run: the service under write load while its PostgreSQL server fails, three ways:
 *   1. stopped (`pg_ctl stop -m immediate`) for 15 s, then started again;
 *   2. the postmaster killed with SIGKILL, then started again;
 *   3. out of connections (idle clients hold every slot) for 6 s.
 * Six wallets write all along: single stores and batches of 5. Passes when
 *   - every answer is 2xx, or 503 SERVICE_UNAVAILABLE with the error body and Retry-After
 *     (never a 500, never another status);
 *   - no request takes longer than 7 s (connect timeout 5 s + margin; nothing hangs);
 *   - every acknowledged memory is in the database afterwards, and every batch is all or
 *     nothing (a failed batch left 0 or 5 rows, never some);
 *   - writes succeed again within seconds of each recovery.
 * `.ci/run` runs it after the suite on the server of scripts/ci-postgres.sh (it needs that
 * server's data directory and root, to run pg_ctl as the postgres user):
 *   DATABASE_URL=$(bash scripts/ci-postgres.sh) npx tsx scripts/fault-run.ts
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Client } from "@neondatabase/serverless";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { summary } from "../bench/lib/stats";
import { startStack } from "../bench/systems/stack";
import { proxiedClient, startWsProxy, type WsProxy } from "../local/db/ws-proxy";
import { freePort } from "../local/free-port";

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
/**
 * No request may take longer. Below the Worker's connect timeout (10 s, worker/db/client.ts) on
 * purpose: in every fault here the server refuses or drops connections at once, so a request
 * that comes near that timeout is a stall, which is what this run exists to catch.
 */
const MAX_REQUEST_MS = 7_000;
const WRITERS = 6;
const BATCH = 5;

const log = (line: string) => console.log(`[fault] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server under test, as it describes itself: ci-postgres.sh may have moved it to another
 * port or data directory when the usual ones were taken. */
interface Server {
  dataDir: string;
  port: string;
}

async function describeServer(url: string, proxy: WsProxy): Promise<Server> {
  const client = proxiedClient(url, proxy);
  await client.connect();
  try {
    const dir = await client.query("SHOW data_directory");
    const port = await client.query("SHOW port");
    return { dataDir: dir.rows[0].data_directory, port: port.rows[0].port };
  } finally {
    await client.end();
  }
}

function pgCtl(server: Server, ...args: string[]): void {
  const command = [`${PG_BIN}/pg_ctl`, "-D", server.dataDir, ...args].join(" ");
  execFileSync("su", ["postgres", "-c", command], { stdio: "ignore" });
}

function startPostgres(server: Server): void {
  const { dataDir, port } = server;
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dataDir} -c fsync=off -c max_connections=200 -c shared_buffers=1GB`;
  pgCtl(server, "-l", `${dataDir}/server.log`, "-w", "-o", `'${opts}'`, "start");
}

interface Outcome {
  phase: string;
  /** The phase when the answer came; a request that spans two phases counts for the first. */
  endPhase: string;
  ms: number;
  status: number;
  problem?: string;
}

interface Batch {
  marker: string;
  acked: boolean;
}

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error("DATABASE_URL must name the PostgreSQL server of scripts/ci-postgres.sh");
  const proxy = await startWsProxy(0);
  const server = await describeServer(serverUrl, proxy);
  log(`PostgreSQL on port ${server.port}, data in ${server.dataDir}`);
  const stack = await startStack(Number(process.env.PORT ?? (await freePort())), { serverUrl });
  const outcomes: Outcome[] = [];
  const acked: string[] = [];
  const batches: Batch[] = [];
  let phase = "healthy";
  let running = true;

  const writer = async (w: number) => {
    const account = privateKeyToAccount(generatePrivateKey());
    for (let n = 0; running; n++) {
      const ts = Math.floor(Date.now() / 1000);
      const auth = `${account.address}:${ts}:${await account.signMessage({ message: `service-auth:${ts}` })}`;
      const asBatch = n % 2 === 1;
      const marker = `writer${w}-${n}-${crypto.randomUUID()}`;
      const body = asBatch
        ? {
            memories: Array.from({ length: BATCH }, (_, i) => ({
              content: `${marker} item ${i} of a batch`,
            })),
          }
        : { content: `${marker} a single fact` };
      const started = performance.now();
      const at = phase;
      let status = 0;
      let problem: string | undefined;
      try {
        const res = await fetch(`${stack.baseUrl}/v1/store${asBatch ? "/batch" : ""}`, {
          method: "POST",
          headers: { "x-wallet-auth": auth, "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(60_000),
        });
        status = res.status;
        const text = await res.text();
        if (status === 201) {
          const json = JSON.parse(text);
          if (asBatch) acked.push(...json.ids);
          else acked.push(json.id);
        } else if (status === 503) {
          // Not JSON: wrangler dev's own plain-text 503 ("Your worker restarted
          // mid-request"), which it gives when workerd drops the request. It did while the
          // Worker logged a stack per failed request (worker/lib/log.ts, logOutage).
          const json = text.startsWith("{") ? JSON.parse(text) : undefined;
          const shaped =
            json?.error?.code === "SERVICE_UNAVAILABLE" &&
            typeof json.error.message === "string" &&
            typeof json.error.request_id === "string";
          if (!shaped) problem = `503 without the error body: ${text.slice(0, 120)}`;
          else if (!res.headers.get("retry-after")) problem = "503 without Retry-After";
        } else {
          problem = `${status}: ${text.slice(0, 160)}`;
        }
      } catch (err) {
        problem = `no answer: ${err instanceof Error ? err.message : err}`;
      }
      const ms = performance.now() - started;
      if (ms > MAX_REQUEST_MS) problem ??= `took ${ms.toFixed(0)} ms`;
      outcomes.push({ phase: at, endPhase: phase, ms, status, problem });
      if (asBatch) batches.push({ marker, acked: status === 201 });
      if (status !== 201) await sleep(100);
    }
  };

  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  const held: Client[] = [];
  try {
    await sleep(4_000);
    phase = "stopped";
    log("stopping PostgreSQL (immediate) for 15 s");
    pgCtl(server, "stop", "-m", "immediate");
    await sleep(15_000);
    startPostgres(server);
    phase = "recovered after stop";
    log("PostgreSQL started again");
    await sleep(6_000);

    phase = "killed";
    const pid = Number(readFileSync(`${server.dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
    log(`killing the postmaster (pid ${pid}) with SIGKILL`);
    process.kill(pid, "SIGKILL");
    await sleep(3_000);
    // A killed postmaster leaves its shared memory and backends: wait until they are gone.
    for (let i = 0; i < 20; i++) {
      try {
        startPostgres(server);
        break;
      } catch {
        await sleep(500);
      }
    }
    phase = "recovered after kill";
    log("PostgreSQL started again");
    await sleep(6_000);

    phase = "exhausted";
    for (;;) {
      const client = proxiedClient(stack.database.url, proxy);
      try {
        await client.connect();
        held.push(client);
      } catch {
        break;
      }
    }
    log(`holding ${held.length} idle connections (the server refuses more) for 6 s`);
    await sleep(6_000);
    await Promise.all(held.splice(0).map((c) => c.end().catch(() => undefined)));
    phase = "recovered after exhaustion";
    log("connections released");
    await sleep(5_000);
  } finally {
    running = false;
    await Promise.all(writers);
    await Promise.all(held.map((c) => c.end().catch(() => undefined)));
  }

  const problems = outcomes.filter((o) => o.problem).map((o) => `${o.phase}: ${o.problem}`);
  // Every acknowledged write is there; every batch is all or nothing.
  const check = proxiedClient(stack.database.url, proxy);
  await check.connect();
  try {
    const found = await check.query(
      "SELECT count(*)::int AS n FROM memories WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL",
      [acked],
    );
    const present = found.rows[0]?.n ?? 0;
    if (present !== acked.length)
      problems.push(`${acked.length - present} acknowledged memories missing`);
    for (const b of batches) {
      const rows = await check.query(
        "SELECT count(*)::int AS n FROM memories WHERE content LIKE $1",
        [`${b.marker} item %`],
      );
      const n = rows.rows[0]?.n ?? 0;
      if (b.acked ? n !== BATCH : n !== 0 && n !== BATCH)
        problems.push(`batch ${b.acked ? "acknowledged" : "failed"} with ${n} of ${BATCH} rows`);
    }
    log(
      `${acked.length} acknowledged memories, ${present} present; ${batches.length} batches checked`,
    );
  } finally {
    await check.end();
    await proxy.close();
    await stack.stop();
  }

  for (const name of [...new Set(outcomes.map((o) => o.phase))]) {
    const of = outcomes.filter((o) => o.phase === name);
    const counts: Record<string, number> = {};
    for (const o of of) counts[o.status] = (counts[o.status] ?? 0) + 1;
    const s = summary(of.map((o) => o.ms));
    log(
      `${name.padEnd(27)} ${JSON.stringify(counts)} p50 ${s.p50} ms, p99 ${s.p99} ms, max ${Math.max(...of.map((o) => o.ms)).toFixed(0)} ms`,
    );
  }
  // Writes must work again once the database is back (the last second of each recovery).
  for (const name of [
    "recovered after stop",
    "recovered after kill",
    "recovered after exhaustion",
  ]) {
    const last = outcomes.filter((o) => o.phase === name && o.endPhase === name).slice(-WRITERS);
    if (last.length === 0 || last.some((o) => o.status !== 201))
      problems.push(`${name}: writes still failing at its end`);
  }
  if (problems.length > 0) {
    for (const p of problems.slice(0, 20)) log(`FAIL ${p}`);
    log(`${problems.length} problems`);
    process.exit(1);
  }
  log(
    `passed: only 2xx and 503, nothing over ${MAX_REQUEST_MS / 1000} s, no acknowledged write lost, no partial batch`,
  );
}

main().catch((err) => {
  console.error("[fault] failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
