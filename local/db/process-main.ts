/**
 * The local database stack of start.ts in a process of its own (started by process.ts). Its
 * options come as JSON in its one argument; its first stdout line is JSON for the parent:
 *   {"ready": true, "database": {url, wsProxy, workerVars, kind}}   or   {"ready": false, "reason"}
 * Its log lines go to stderr. It exits when its stdin closes (local/child.ts).
 *
 *   node --import tsx local/db/process-main.ts '{"dataDir": "memory://"}'
 */
import { replyToParent, stopWithParent } from "../child";
import { type LocalDatabaseOptions, startLocalDatabase } from "./start";

async function main(): Promise<void> {
  // stdout carries the ready line alone: whatever a library prints goes to stderr.
  console.log = console.error;
  const options = JSON.parse(process.argv[2] ?? "{}") as LocalDatabaseOptions;
  const { stop, ...database } = await startLocalDatabase({
    ...options,
    log: (line) => process.stderr.write(`[test-db] ${line}\n`),
  });
  replyToParent({ ready: true, database });
  stopWithParent(stop);
}

main().catch((err: unknown) => {
  replyToParent({ ready: false, reason: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
