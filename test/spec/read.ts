/**
 * Reads the spec (../shared/spec/api-spec.md, beside the clone) and parses its facts
 * (test/spec/parse.ts). The global setup (test/global-setup.ts) runs it in Node and hands the
 * result to the Workers tests as the SPEC_FACTS binding (test/spec/facts.ts).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseSpecFacts, type SpecFacts } from "./parse";

export const SPEC_PATH = fileURLToPath(
  new URL("../../../shared/spec/api-spec.md", import.meta.url),
);

export function readSpecFacts(path = SPEC_PATH): SpecFacts {
  let markdown: string;
  try {
    markdown = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`the spec is not at ${path} (../shared beside the clone): ${err}`);
  }
  return parseSpecFacts(markdown);
}
