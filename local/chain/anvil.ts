/**
 * anvil (from the npm package @foundry-rs/anvil) on 127.0.0.1, with anvil's test accounts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { LOCAL_CHAIN_ID, TEST_MNEMONIC } from "./details";

/** The anvil binary of this platform, from the @foundry-rs/anvil-<os>-<arch> package. */
function anvilBinary(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const require = createRequire(import.meta.url);
  try {
    const dir = require.resolve(`${pkg}/package.json`).replace(/package\.json$/, "");
    const bin = `${dir}bin/anvil${process.platform === "win32" ? ".exe" : ""}`;
    if (existsSync(bin)) return bin;
  } catch {
    // fall through to the error below
  }
  throw new Error(`anvil binary not found (${pkg}); run npm install`);
}

export function startAnvil(port: number): Promise<{ child: ChildProcess; rpcUrl: string }> {
  const child = spawn(
    anvilBinary(),
    [
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--chain-id",
      String(LOCAL_CHAIN_ID),
      "--mnemonic",
      TEST_MNEMONIC,
      "--accounts",
      "4",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => fail(new Error("anvil did not start within 20 s")), 20_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      reject(new Error(`${err.message}\n${output.slice(-2000)}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = output.match(/Listening on ([\d.]+):(\d+)/);
      if (listening) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        // Keep draining anvil's output so it never blocks on a full pipe.
        child.stdout?.resume();
        resolve({ child, rpcUrl: `http://${listening[1]}:${listening[2]}` });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(`anvil exited with code ${code}`)));
  });
}
