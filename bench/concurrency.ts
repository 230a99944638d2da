/**
 * The concurrency part: many wallets working at once, as agents do. Each wallet runs rounds
 * of: store, batch store of 3, then list + get + search + recall in parallel, then a patch.
 * Measured on the embedded default and, when DATABASE_URL names one, on the PostgreSQL
 * server, in the same run: requests/s, latency, errors (any unexpected status) and foreign
 * rows (another wallet's memory in an answer; must be 0).
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fmt, log, ratio, type Table } from "./lib/report";
import { type LatencySummary, summary } from "./lib/stats";
import { startStack } from "./systems/stack";

export interface ConcurrencyOptions {
  port: number;
  wallets: number;
  rounds: number;
}

interface Result {
  database: string;
  requests: number;
  seconds: number;
  perSecond: number;
  latency: LatencySummary;
  errors: number;
  foreignRows: number;
  /** A few unexpected answers, for the log. */
  samples: string[];
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below.
  body: any;
}

export async function loadOn(
  baseUrl: string,
  database: string,
  opts: ConcurrencyOptions,
): Promise<Result> {
  const latencies: number[] = [];
  const samples: string[] = [];
  let requests = 0;
  let errors = 0;
  let foreignRows = 0;

  const wallet = async (w: number) => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ts = Math.floor(Date.now() / 1000);
    const auth = `${account.address}:${ts}:${await account.signMessage({ message: `service-auth:${ts}` })}`;
    const marker = `wallet${w}x${account.address.slice(2, 10).toLowerCase()}`;
    const mine = new Set<string>();
    const call = async (
      method: string,
      path: string,
      expect: number,
      body?: unknown,
    ): Promise<Answer | undefined> => {
      const started = performance.now();
      requests++;
      try {
        const res = await fetch(`${baseUrl}${path}`, {
          method,
          headers: { "x-wallet-auth": auth, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        latencies.push(performance.now() - started);
        if (res.status !== expect) {
          errors++;
          if (samples.length < 5)
            samples.push(`${method} ${path} → ${res.status} ${text.slice(0, 160)}`);
          return undefined;
        }
        return { status: res.status, body: JSON.parse(text) };
      } catch (err) {
        errors++;
        if (samples.length < 5)
          samples.push(`${method} ${path} → ${err instanceof Error ? err.message : err}`);
        return undefined;
      }
    };
    const checkOwn = (list: Array<{ id: string; content?: string }> | undefined) => {
      for (const m of list ?? []) {
        if (!mine.has(m.id) || (m.content !== undefined && !m.content.includes(marker)))
          foreignRows++;
      }
    };
    for (let r = 0; r < opts.rounds; r++) {
      const text = (k: string) => `${marker} round ${r} item ${k}: ${crypto.randomUUID()}`;
      const one = await call("POST", "/v1/store", 201, { content: text("single") });
      if (!one) continue;
      mine.add(one.body.id);
      const batch = await call("POST", "/v1/store/batch", 201, {
        memories: ["a", "b", "c"].map((k) => ({ content: text(k) })),
      });
      for (const id of batch?.body.ids ?? []) mine.add(id);
      const [list, got, search, recall] = await Promise.all([
        call("GET", "/v1/memories?limit=50", 200),
        call("GET", `/v1/memories/${one.body.id}`, 200),
        call("POST", "/v1/search", 200, { query: marker, limit: 20 }),
        call("POST", "/v1/recall", 200, { query: `${marker} round ${r}`, limit: 10 }),
      ]);
      checkOwn(list?.body.memories);
      checkOwn(got ? [got.body] : undefined);
      checkOwn(search?.body.memories);
      checkOwn(recall?.body.memories);
      await call("PATCH", `/v1/memories/${one.body.id}`, 200, { content: text("patched") });
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: opts.wallets }, (_, w) => wallet(w)));
  const seconds = (performance.now() - started) / 1000;
  for (const line of samples) log(`  unexpected on ${database}: ${line}`);
  log(
    `  ${database}: ${requests} requests in ${seconds.toFixed(1)} s, ${errors} errors, ${foreignRows} foreign rows`,
  );
  return {
    database,
    requests,
    seconds,
    perSecond: requests / seconds,
    latency: summary(latencies),
    errors,
    foreignRows,
    samples,
  };
}

/** Runs the load on the embedded default, then on DATABASE_URL's server if set. */
export async function runConcurrency(opts: ConcurrencyOptions) {
  const targets: Array<{ label: string; serverUrl?: string }> = [{ label: "embedded PGlite" }];
  if (process.env.DATABASE_URL)
    targets.push({ label: "PostgreSQL server", serverUrl: process.env.DATABASE_URL });
  const results: Result[] = [];
  for (const target of targets) {
    const stack = await startStack(opts.port, { serverUrl: target.serverUrl });
    try {
      log(`concurrency: ${opts.wallets} wallets × ${opts.rounds} rounds on ${target.label}`);
      results.push(await loadOn(stack.baseUrl, target.label, opts));
    } finally {
      await stack.stop();
    }
  }
  const server = results.find((r) => r.database === "PostgreSQL server");
  const table: Table = {
    title: `Concurrency: ${opts.wallets} wallets at once, ${opts.rounds} rounds each (store, batch of 3, list + get + search + recall in parallel, patch)`,
    header: [
      "database",
      "requests",
      "req/s",
      "p50 ms",
      "p95 ms",
      "p99 ms",
      "errors",
      "foreign rows",
      "req/s vs server",
    ],
    rows: results.map((r) => [
      r.database,
      String(r.requests),
      fmt(r.perSecond),
      fmt(r.latency.p50),
      fmt(r.latency.p95),
      fmt(r.latency.p99),
      String(r.errors),
      String(r.foreignRows),
      ratio(r.perSecond, server?.perSecond),
    ]),
    notes: server ? [] : ["(set DATABASE_URL to measure a PostgreSQL server beside it)"],
  };
  return { tables: [table], json: { wallets: opts.wallets, rounds: opts.rounds, results } };
}
