/**
 * The Worker with the production embedding model: the suite's Worker (SELF) embeds with the
 * lexical embedder, so the real-model tests call the same Worker code with EMBEDDER=openai
 * pointed at the local bge-small-en-v1.5 process of the global setup, exactly as
 * `npm run dev` configures it, with the suite's database and Durable Objects.
 */
import { env } from "cloudflare:workers";
import { WORKERS_AI_EMBEDDING_MODEL } from "../worker/embed/workers-ai";
import type { Env } from "../worker/env";
import { newWallet, type WorkerFetch } from "./helpers";
import { workerWith } from "./worker-with";

export const BGE_MODEL = WORKERS_AI_EMBEDDING_MODEL;

/** The endpoint, or an error saying why the model is missing: these tests fail, never skip. */
export function bgeEndpoint(): string {
  if (!env.BGE_EMBEDDINGS_URL) {
    throw new Error(`bge-small-en-v1.5 is not available to the tests: ${env.BGE_PROBLEM}`);
  }
  return env.BGE_EMBEDDINGS_URL;
}

function bgeEnv(): Env {
  return {
    ...env,
    EMBEDDER: "openai",
    EMBEDDING_API_URL: bgeEndpoint(),
    EMBEDDING_MODEL: BGE_MODEL,
  };
}

/** The bindings are read per call: without the model, a call fails saying why. */
export const bgeFetch: WorkerFetch = (url, init) => workerWith(bgeEnv())(url, init);

/** A fresh wallet talking to the bge Worker. */
export const bgeWallet = () => newWallet(bgeFetch);
