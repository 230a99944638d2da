import type { Config, Env } from "../env";
import { requireAiBinding, requireApiUrl } from "../lib/provider-settings";
import type { Embedder } from "./embedder";
import { LocalEmbedder } from "./local";
import { OpenAiEmbedder } from "./openai";
import { WorkersAiEmbedder } from "./workers-ai";

export type { Embedder, Embedding } from "./embedder";
export { EMBEDDING_DIMENSIONS } from "./embedder";
export { cosine } from "./vector";

export const DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small";

/** The local embedder holds no state, so one instance serves every request. */
const local = new LocalEmbedder();

/** Picks the embedder named by EMBEDDER; a missing companion setting is a deploy error. */
export function createEmbedder(config: Config, env: Env): Embedder {
  switch (config.EMBEDDER) {
    case "local":
      return local;
    case "workers-ai":
      return new WorkersAiEmbedder(requireAiBinding(env, "EMBEDDER"));
    case "openai":
      return new OpenAiEmbedder({
        baseUrl: requireApiUrl(config.EMBEDDING_API_URL, "EMBEDDER", "EMBEDDING_API_URL"),
        apiKey: config.EMBEDDING_API_KEY,
        model: config.EMBEDDING_MODEL ?? DEFAULT_OPENAI_EMBEDDING_MODEL,
      });
  }
}
