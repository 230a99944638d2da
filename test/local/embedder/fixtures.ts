/** What the tests of the local embedding process share. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The model name production asks Workers AI for, which the process serves too. */
export const MODEL = "@cf/baai/bge-small-en-v1.5";
export const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
};
export const quiet = () => {};
const made: string[] = [];
/** A new empty folder; removeTempDirs deletes every one made. */
export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "embedder-test-"));
  made.push(dir);
  return dir;
};
export const removeTempDirs = () => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
};
