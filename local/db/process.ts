/**
 * The embedded database in a process of its own, for the test suite. PGlite runs its
 * WebAssembly Postgres on the thread that holds it; in vitest's main process that is the
 * thread that also serves every test file its modules, so each query held up the other files'
 * imports (PGlite was 75 s of that thread's 206 busy seconds over the worker project). A
 * process of its own gives it the second core. A server named by DATABASE_URL needs none.
 */
import { startChild } from "../child";
import type { LocalDatabase, LocalDatabaseOptions } from "./start";

const MAIN = new URL("./process-main.ts", import.meta.url).pathname;

export async function startLocalDatabaseProcess(
  options: Omit<LocalDatabaseOptions, "log">,
): Promise<LocalDatabase> {
  const started = await startChild("database process", MAIN, [JSON.stringify(options)]);
  if (!started.ok) throw new Error(`the local database did not start: ${started.reason}`);
  return { ...(started.message.database as Omit<LocalDatabase, "stop">), stop: started.stop };
}
