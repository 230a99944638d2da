/**
 * The embedder of a benchmark run, the same for every system in it: `--embedder bge` (the
 * default) runs production's model, bge-small-en-v1.5, in the local process of
 * local/embedder and gives it to the Worker (EMBEDDER=openai, as `npm run dev` does), to
 * Mem0 (through embed-server.ts) and to the in-process cosine reference; `--embedder local`
 * uses the built-in lexical embedder everywhere. Without the model, a bge run falls back to
 * the lexical embedder and says so, and the tables name what was used.
 */

import { chooseEmbedder } from "../../local/embedder/launch";
import type { Embedder } from "../../worker/embed/embedder";
import { LocalEmbedder } from "../../worker/embed/local";
import { OpenAiEmbedder } from "../../worker/embed/openai";
import { log } from "../lib/report";

export type EmbedderKind = "bge" | "local";

export interface BenchEmbedding {
  /** For tables and JSON, e.g. "bge-small-en-v1.5 (@cf/baai/bge-small-en-v1.5, CLS)". */
  label: string;
  lexical: boolean;
  /** EMBEDDER and its settings for the Worker. */
  vars: Record<string, string>;
  /** The same vectors in process, for Mem0's endpoint, the cosine reference and seeding. */
  embedder: Embedder;
  stop(): Promise<void>;
}

export async function startBenchEmbedding(kind: EmbedderKind): Promise<BenchEmbedding> {
  const choice = await chooseEmbedder({ EMBEDDER: kind === "local" ? "local" : undefined });
  log(`embedder: ${choice.summary}`);
  const model = choice.model;
  if (!model) {
    return {
      label: `local-lexical-v1 (lexical${kind === "bge" ? ", fallback: bge-small-en-v1.5 not available" : ""})`,
      lexical: true,
      vars: choice.vars,
      embedder: new LocalEmbedder(),
      stop: choice.stop,
    };
  }
  return {
    label: `bge-small-en-v1.5 (${model.model}, CLS pooling, local ONNX process)`,
    lexical: false,
    vars: choice.vars,
    // Generous timeout: a batch of 100 long turns takes seconds on two busy cores.
    embedder: new OpenAiEmbedder({ baseUrl: model.url, model: model.model, timeoutMs: 120_000 }),
    stop: choice.stop,
  };
}
