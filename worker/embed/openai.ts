import { z } from "zod";
import { ApiError } from "../errors";
import {
  type ProviderHttpOptions,
  postJsonWithRetry,
  type RetryingPost,
  retryingPost,
} from "../lib/provider-http";
import { countTokens } from "../lib/tokens";
import { EMBEDDING_DIMENSIONS, type Embedder, type Embedding } from "./embedder";
import { normalise } from "./vector";

/** Defaults: timeout 15 s per attempt, first retry after 200 ms, 3 attempts per batch. */
export interface OpenAiEmbedderOptions extends ProviderHttpOptions {
  model: string;
}

/** OpenAI's limit is 2048 inputs per request; 100 keeps each request small and retry cheap. */
const BATCH_SIZE = 100;

const responseSchema = z.object({
  data: z.array(
    z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) }),
  ),
  usage: z
    .object({ prompt_tokens: z.number().optional(), total_tokens: z.number().optional() })
    .optional(),
});

/** Any OpenAI-compatible POST /embeddings endpoint (OpenAI, Azure-style proxies, vLLM, Ollama…). */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  /** Embedding APIs serve models of meaning. */
  readonly semantic = true;
  private readonly http: RetryingPost;

  constructor(options: OpenAiEmbedderOptions) {
    this.model = options.model;
    this.http = retryingPost(options, {
      path: "/embeddings",
      timeoutMs: 15_000,
      backoffBaseMs: 200,
      fail: providerError,
    });
  }

  async embed(texts: string[]): Promise<Embedding> {
    const vectors: number[][] = [];
    let tokens = 0;
    // Sequential batches: simpler on a provider's rate limit than a burst of parallel calls.
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      const batch = texts.slice(start, start + BATCH_SIZE);
      const result = await this.embedBatch(batch);
      vectors.push(...result.vectors);
      tokens += result.tokens;
    }
    return { vectors, tokens };
  }

  private async embedBatch(batch: string[]): Promise<Embedding> {
    const json = await postJsonWithRetry(
      this.http,
      JSON.stringify({
        model: this.model,
        input: batch,
        dimensions: EMBEDDING_DIMENSIONS,
        encoding_format: "float",
      }),
    );
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) throw providerError("malformed response");
    const data = [...parsed.data.data].sort((a, b) => a.index - b.index);
    if (data.length !== batch.length || data.some((d, i) => d.index !== i)) {
      throw providerError(`expected ${batch.length} embeddings, got ${data.length}`);
    }
    const vectors = data.map(({ embedding }) => {
      if (embedding.length !== EMBEDDING_DIMENSIONS) {
        throw providerError(
          `expected ${EMBEDDING_DIMENSIONS} dimensions, got ${embedding.length} (does the model support "dimensions"?)`,
        );
      }
      const unit = normalise(embedding);
      if (!unit) throw providerError("zero vector");
      return unit;
    });
    const usage = parsed.data.usage;
    const reported = usage?.prompt_tokens ?? usage?.total_tokens;
    const tokens = reported ?? batch.reduce((sum, text) => sum + countTokens(text), 0);
    return { vectors, tokens };
  }
}

function providerError(reason: string): ApiError {
  return new ApiError("BAD_GATEWAY", `Embedding provider failed: ${reason}`);
}
