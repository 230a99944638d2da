/**
 * Starts the Worker with `wrangler dev` against a database from db/start.ts. Used by
 * `npm run dev` (output shown) and the benchmark (output kept quiet).
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  type FSWatcher,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  watch,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { buildConsole, CONSOLE_DIST, CONSOLE_SRC } from "../console/build";

export const ROOT = new URL("..", import.meta.url).pathname;

export interface ServiceOptions {
  port: number;
  vars: Record<string, string>;
  quiet?: boolean;
  /** Rebuild the console whenever console/src changes (npm run dev); wrangler then reloads. */
  watchConsole?: boolean;
}

export interface Service {
  child: ChildProcess;
  /** Stops wrangler and its workerd children (the whole process group). */
  stop(): void;
}

/**
 * The web console is built here, before wrangler starts, and not by a wrangler.toml [build]:
 * wrangler runs a custom build again when its file watcher becomes ready, and that second
 * build reloads the Worker. On a busy machine the watcher is ready only after the first
 * requests, and wrangler's proxy answers each POST it loses in the reload with its own
 * plain-text 503 "Your worker restarted mid-request" (the likely cause of stops 32 and 33's
 * CI failures: one such request in schemathesis, one in the fault run). Without [build], wrangler bundles the Worker itself
 * and reloads it only when one of its files changes.
 */
export async function startWrangler(opts: ServiceOptions): Promise<Service> {
  await ensureConsole(opts.quiet);
  const consoleWatcher = opts.watchConsole ? watchConsoleSources() : undefined;
  const args = [
    "wrangler",
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(opts.port),
    "--show-interactive-dev-session=false",
    // wrangler.toml's cron (the webhooks' minute catch-up) does not fire under wrangler dev:
    // the ticker below fires it, as production's would, and this flag says so to wrangler,
    // which otherwise warns that scheduled events are not triggered.
    "--test-scheduled",
  ];
  if (opts.quiet) args.push("--log-level", "warn");
  for (const [k, v] of Object.entries(opts.vars)) args.push("--var", `${k}:${v}`);
  // Its own process group, so that stop() reaches npx, wrangler and workerd alike.
  const child = spawn("npx", args, {
    cwd: ROOT,
    detached: true,
    stdio: opts.quiet ? ["ignore", "ignore", "inherit"] : "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  const cron = setInterval(() => {
    fetch(`http://127.0.0.1:${opts.port}/__scheduled?cron=*+*+*+*+*`).catch(() => undefined);
  }, 60_000);
  cron.unref();
  return {
    child,
    stop() {
      clearInterval(cron);
      consoleWatcher?.close();
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, "SIGINT");
      } catch {
        child.kill("SIGINT");
      }
    },
  };
}

/** What the last console build read (console/build.ts, ConsoleBuild.inputs): outside the
 * console's dist, which wrangler serves, since these are local paths. */
const CONSOLE_INPUTS = `${ROOT}node_modules/.cache/console-inputs.json`;

/**
 * Builds console/dist when it is missing or older than a file it was built from: console/src
 * and what it imports from elsewhere (schema/kinds.ts), and console/build.ts. A dist
 * that is current is left alone: rewriting it would reload any other wrangler dev serving it.
 */
async function ensureConsole(quiet?: boolean): Promise<void> {
  const built = `${CONSOLE_DIST}/console/config.json`;
  if (existsSync(built) && newestInput() <= statSync(built).mtimeMs) return;
  await rebuildConsole(quiet);
}

async function rebuildConsole(quiet?: boolean): Promise<void> {
  const b = await buildConsole({ testWallet: true, outDir: CONSOLE_DIST });
  mkdirSync(dirname(CONSOLE_INPUTS), { recursive: true });
  writeFileSync(CONSOLE_INPUTS, JSON.stringify(b.inputs));
  if (!quiet)
    console.log(`[console] built ${b.outDir} in ${b.ms} ms (${(b.bytes / 1024).toFixed(0)} KiB)`);
}

/** The newest modification time among the console's inputs; Infinity when one is unknown. */
function newestInput(): number {
  if (!existsSync(CONSOLE_INPUTS)) return Number.POSITIVE_INFINITY;
  const files: string[] = [...lastInputs(), `${ROOT}console/build.ts`];
  // All of console/src too: a file added there is one the last build did not read.
  let newest = newestMtime(CONSOLE_SRC);
  for (const file of files) {
    newest = Math.max(newest, existsSync(file) ? statSync(file).mtimeMs : Number.POSITIVE_INFINITY);
  }
  return newest;
}

function lastInputs(): string[] {
  return existsSync(CONSOLE_INPUTS) ? JSON.parse(readFileSync(CONSOLE_INPUTS, "utf8")) : [];
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

/**
 * Rebuilds the console after an edit of console/src or of a file it imports from elsewhere
 * (edits in a burst make one build).
 */
function watchConsoleSources(): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  const rebuild = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      rebuildConsole().catch((err: unknown) =>
        console.error("[console] build failed:", err instanceof Error ? err.message : err),
      );
    }, 200);
  };
  const watchers: FSWatcher[] = [watch(CONSOLE_SRC, { recursive: true }, rebuild)];
  for (const file of lastInputs()) {
    if (!file.startsWith(CONSOLE_SRC) && existsSync(file)) watchers.push(watch(file, rebuild));
  }
  return {
    close() {
      for (const w of watchers) w.close();
    },
  };
}

/** Fails fast when something already answers on the port (an old dev server, say). */
export async function assertPortFree(baseUrl: string): Promise<void> {
  try {
    await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1000) });
  } catch {
    return;
  }
  throw new Error(`something is already listening at ${baseUrl}; stop it or choose another port`);
}

/** Polls /health until the service answers 200 (wrangler prints "Ready" before it is). */
export async function waitForHealth(baseUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`service at ${baseUrl} not healthy after ${timeoutMs} ms (${last})`);
}
