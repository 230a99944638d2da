/** The spec's facts (test/spec/parse.ts) inside the Workers tests, from the SPEC_FACTS binding. */
import { env } from "cloudflare:workers";
import type { SpecFacts } from "./parse";

export const spec: SpecFacts = JSON.parse(env.SPEC_FACTS);
