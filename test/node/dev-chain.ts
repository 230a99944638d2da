/**
 * `npm run dev:chain` started as a user starts it, for the tests that drive a running
 * service: on free ports, with a database of its own, and what its log says about the local
 * chain (the test token, payTo, the funded test payer's key).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../local/free-port";
import { ROOT, waitForHealth } from "../../local/service";

export interface Dev {
  baseUrl: string;
  rpcUrl: string;
  asset: Address;
  payTo: Address;
  network: string;
  payerKey: Hex;
  process: ChildProcess;
  dataDir: string;
}

/** `npm run dev:chain` on free ports with a database of its own; resolves once it is healthy. */
async function startDev(): Promise<Dev> {
  const [port, anvilPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "mcp-test-"));
  const child = spawn("npm", ["run", "dev:chain"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      ANVIL_PORT: String(anvilPort),
      PGLITE_DATA_DIR: join(dataDir, "pglite"),
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (d) => {
    log += d;
  });
  child.stderr?.on("data", (d) => {
    log += d;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, 180_000).catch((err: unknown) => {
    throw new Error(`npm run dev:chain did not get healthy: ${err}\n${log}`);
  });
  const find = (re: RegExp) => {
    const m = log.match(re);
    if (!m?.[1]) throw new Error(`not in the dev log: ${re}\n${log}`);
    return m[1];
  };
  return {
    baseUrl,
    rpcUrl: `http://127.0.0.1:${anvilPort}`,
    asset: find(/token (0x[0-9a-fA-F]{40})/) as Address,
    payTo: find(/payTo (0x[0-9a-fA-F]{40})/) as Address,
    network: find(/local chain (eip155:\d+)/),
    payerKey: find(/private key[^:]*: (0x[0-9a-fA-F]{64})/) as Hex,
    process: child,
    dataDir,
  };
}

/**
 * Starts `npm run dev:chain` before the file's tests and stops it after them; returns the
 * started service, for the tests to call. One test file at a time: two services started at
 * once race for wrangler's inspector port (9229), and one of them fails to start.
 */
export function devChain(): () => Dev {
  let dev: Dev | undefined;
  beforeAll(async () => {
    dev = await startDev();
  }, 240_000);
  afterAll(async () => {
    const started = dev;
    if (!started) return;
    if (started.process.pid) {
      try {
        process.kill(-started.process.pid, "SIGINT");
      } catch {
        // already gone
      }
      await new Promise((r) => started.process.once("exit", r));
    }
    rmSync(started.dataDir, { recursive: true, force: true });
  }, 60_000);
  return () => {
    if (!dev) throw new Error("npm run dev:chain is not running");
    return dev;
  };
}
