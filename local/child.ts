/**
 * A helper process of the local stack (the embedder, the tests' embedded database): started
 * with tsx, it says on its first stdout line, as JSON, that it serves ({"ready": true, …}) or
 * why it cannot ({"ready": false, "reason"}); everything else it writes goes to stderr. It
 * exits when its stdin closes, so it never outlives the process that started it, even one
 * killed without a chance to stop it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { ROOT } from "./service";

export type ChildStart =
  | { ok: true; message: Record<string, unknown>; stop(): Promise<void> }
  | { ok: false; reason: string };

const parseLine = (line: string): Record<string, unknown> => {
  const parsed: unknown = JSON.parse(line);
  if (typeof parsed !== "object" || parsed === null) throw new Error("not an object");
  return parsed as Record<string, unknown>;
};

/**
 * Spawns `node --import tsx <main> <args>` and waits for its first line. `name` says who it
 * is in the reasons and in the line logged when it stops unasked.
 */
export function startChild(name: string, main: string, args: string[] = []): Promise<ChildStart> {
  const child = spawn(process.execPath, ["--import", "tsx", main, ...args], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
    env: process.env,
  });
  return new Promise<ChildStart>((resolve) => {
    let settled = false;
    const settle = (result: ChildStart) => {
      if (settled) return;
      settled = true;
      if (!result.ok) void stopChild(child);
      resolve(result);
    };
    child.once("error", (err) => settle({ ok: false, reason: `could not start: ${err.message}` }));
    child.once("exit", (code) =>
      settle({ ok: false, reason: `the ${name} exited (code ${code}) before serving` }),
    );
    createInterface({ input: child.stdout }).once("line", (line) => {
      let message: Record<string, unknown>;
      try {
        message = parseLine(line);
      } catch {
        settle({ ok: false, reason: `unexpected output from the ${name}: ${line}` });
        return;
      }
      if (message.ready !== true) {
        settle({ ok: false, reason: String(message.reason ?? "unknown reason") });
        return;
      }
      let stopping = false;
      child.once("exit", (code, signal) => {
        if (!stopping) console.error(`[${name}] stopped (${signal ?? code})`);
      });
      settle({
        ok: true,
        message,
        stop: () => {
          stopping = true;
          return stopChild(child);
        },
      });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    // Closing stdin is the child's signal to stop (it also stops on SIGTERM).
    child.stdin?.end();
    child.kill("SIGTERM");
  });
}

/** The child's side: its first line to the parent. */
export const replyToParent = (message: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify(message)}\n`);

/** The child's side: `stop` runs once, when the parent closes stdin or sends SIGTERM. */
export function stopWithParent(stop: () => Promise<void>): void {
  let stopping = false;
  const once = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.stdin.on("end", () => void once());
  process.stdin.on("close", () => void once());
  process.stdin.resume();
  process.on("SIGTERM", () => void once());
  // Ctrl-C in `npm run dev` reaches the whole process group: the parent stops everything in
  // its own order and closes our stdin, so the interrupt itself is not ours to act on.
  process.on("SIGINT", () => {});
}
