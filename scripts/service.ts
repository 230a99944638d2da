/**
 * Starts the Worker with `wrangler dev` against a database from local-db.ts. Used by
 * `npm run dev` (output shown) and the benchmark (output kept quiet).
 */
import { type ChildProcess, spawn } from "node:child_process";

export const ROOT = new URL("..", import.meta.url).pathname;

export interface ServiceOptions {
  port: number;
  vars: Record<string, string>;
  quiet?: boolean;
}

export interface Service {
  child: ChildProcess;
  /** Stops wrangler and its workerd children (the whole process group). */
  stop(): void;
}

export function startWrangler(opts: ServiceOptions): Service {
  const args = [
    "wrangler",
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(opts.port),
    "--show-interactive-dev-session=false",
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
  return {
    child,
    stop() {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, "SIGINT");
      } catch {
        child.kill("SIGINT");
      }
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
