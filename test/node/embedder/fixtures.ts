/** What the tests of the local embedding process share. */
import { mkdtempSync } from "node:fs";
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
export const tempDir = () => mkdtempSync(join(tmpdir(), "embedder-test-"));
