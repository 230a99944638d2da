/**
 * `npm run dev`: the whole service locally, offline, in one process tree.
 *   1. Postgres: the embedded PGlite + pgvector (data in .data/pglite), or DATABASE_URL.
 *   2. A WebSocket proxy in front of it, so the Worker's Neon driver can reach it.
 *   3. Migrations.
 *   4. The embedder: bge-small-en-v1.5, production's model, in a local process
 *      (local/embedder), unless EMBEDDER is set; the lexical one if the model is missing.
 *   5. The web console (console/build.ts), served at / beside the API, built when a file it
 *      is built from is newer than its last build and again on every edit of one
 *      (local/service.ts says why here and not in wrangler.toml).
 *   6. DNS-over-HTTPS for the webhooks' target check, answered by this machine's resolver
 *      (local/dns.ts says why), unless WEBHOOKS_DNS_URL is set.
 *   7. `wrangler dev` on 127.0.0.1:8787 with those settings.
 * With `--chain` (`npm run dev:chain`), also a local EVM chain with a test USDC, and the
 * Worker's x402 payments pointed at it (local/chain/start.ts).
 * One Ctrl-C stops everything (the embedded database is closed cleanly).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { CONFIG_KEYS, parseConfig } from "../worker/env";
import { paymentNetwork, paymentProblems } from "../worker/payment/settings";
import { startDevChain } from "./chain/start";
import { startLocalDatabase } from "./db/start";
import { startLocalDns } from "./dns";
import { chooseEmbedder } from "./embedder/launch";
import { assertPortFree, ROOT, startWrangler } from "./service";

const root = ROOT;
const dataDir = process.env.PGLITE_DATA_DIR ?? `${root}.data/pglite`;
const port = process.env.PORT ?? "8787";
const log = (line: string) => console.log(`[dev] ${line}`);

/** A JWT secret kept in .data so session tokens survive restarts; JWT_SECRET overrides it. */
function devJwtSecret(): string {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  const file = `${root}.data/jwt-secret`;
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(`${root}.data`, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Whether the Worker will take payments, said at start; settings that contradict each other
 * are listed (the Worker reports the same at GET /health).
 */
function logPayments(vars: Record<string, string>) {
  const parsed = parseConfig(vars);
  if (!parsed.ok) return; // the Worker says what is wrong on its first request
  const problems = paymentProblems(parsed.config);
  const network = paymentNetwork(parsed.config);
  if (problems.length > 0) {
    for (const problem of problems) log(`payments MISCONFIGURED: ${problem}`);
  } else if (parsed.config.X402_PAY_TO) {
    log(`payments: on, x402 on ${network}`);
  } else {
    log(
      "payments: off (no X402_PAY_TO): after its 100 free calls a wallet is told nothing can be paid; npm run dev:chain pays on a local chain",
    );
  }
}

async function main() {
  await assertPortFree(`http://127.0.0.1:${port}`);
  const started = Date.now();
  // The model loads while the database starts: both take a few seconds.
  const embedding = chooseEmbedder(process.env);
  const db = await startLocalDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir,
    transport: process.env.DATABASE_TRANSPORT,
    pgPort: Number(process.env.PGLITE_PORT ?? 0),
    log,
  });
  const embedder = await embedding;
  log(`embedder: ${embedder.summary}`);
  if (db.kind === "embedded") log(`embedded Postgres listening at ${db.url} (psql works too)`);
  log(`database ready in ${((Date.now() - started) / 1000).toFixed(1)} s; starting wrangler dev`);
  const dns = process.env.WEBHOOKS_DNS_URL ? undefined : await startLocalDns();

  const vars: Record<string, string> = {
    ...db.workerVars,
    JWT_SECRET: devJwtSecret(),
    // wrangler dev prints a line per request of its own; REQUEST_LOG=on npm run dev shows ours.
    REQUEST_LOG: process.env.REQUEST_LOG || "off",
    // Webhooks may target http://localhost and 127.0.0.1 here (docs/webhooks.md); never set
    // in production, where only https to public addresses is allowed.
    WEBHOOKS_ALLOW_LOCAL: process.env.WEBHOOKS_ALLOW_LOCAL || "on",
    ...(dns ? { WEBHOOKS_DNS_URL: dns.url } : {}),
    ...embedder.vars,
  };
  // Every variable the Worker reads (worker/env.ts) can be set from the shell; the database
  // and the JWT secret above are npm run dev's own unless the shell names them.
  for (const name of CONFIG_KEYS) {
    const value = process.env[name];
    if (value && !(name in vars)) vars[name] = value;
  }
  const chain = process.argv.includes("--chain") ? await startDevChain(log) : undefined;
  Object.assign(vars, chain?.vars);
  logPayments(vars);
  const wrangler = await startWrangler({ port: Number(port), vars, watchConsole: true });
  log(`web console at http://127.0.0.1:${port}/ once wrangler is ready (README "Web console")`);
  const child = wrangler.child;

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log("stopping");
    wrangler.stop();
    await chain?.stop();
    await embedder.stop();
    await dns?.close();
    await db.stop().catch((err) => console.error("[dev] database did not stop cleanly", err));
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  child.on("exit", (code) => void stop(code ?? 0));
}

main().catch((err) => {
  console.error("[dev] failed to start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
