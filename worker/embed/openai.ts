import { z } from "zod";
import { ApiError } from "../errors";
import { postJsonWithRetry } from "../lib/provider-http";
import { countTokens } from "../lib/tokens";
import { EMBEDDING_DIMENSIONS, type Embedder, type Embedding } from "./embedder";
import { normalise } from "./vector";

export interface OpenAiEmbedderOptions {
  /** Base URL of the API, e.g. https://api.openai.com/v1; "/embeddings" is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** First retry delay; later ones double. Default 200 ms. */
  backoffBaseMs?: number;
  /** Per-attempt timeout. Default 15 s. */
  timeoutMs?: number;
  /** Attempts per batch, the first included. Default 3. */
  maxAttempts?: number;
}

/** OpenAI's limit is 2048 inputs per request; 100 keeps each request small and retry cheap. */
const BATCH_SIZE = 100;
/** A Retry-After longer than this is shortened to it: a request is waiting on us. */

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
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly backoffBaseMs: number;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;

  constructor(options: OpenAiEmbedderOptions) {
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
    this.apiKey = options.apiKey;
    // Bound so a bare `fetch` reference isn't called with the wrong `this` (workerd throws).
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.backoffBaseMs = options.backoffBaseMs ?? 200;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
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
    const json = await this.postWithRetry(
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

  /** POSTs, retrying 429, 5xx, timeouts and network errors; returns the parsed JSON body. */
  private postWithRetry(body: string): Promise<unknown> {
    return postJsonWithRetry(
      {
        url: this.url,
        apiKey: this.apiKey,
        fetchImpl: this.fetchImpl,
        timeoutMs: this.timeoutMs,
        maxAttempts: this.maxAttempts,
        backoffBaseMs: this.backoffBaseMs,
        fail: (reason) => providerError(reason),
      },
      body,
    );
  }
}

function providerError(reason: string): ApiError {
  return new ApiError("BAD_GATEWAY", `Embedding provider failed: ${reason}`);
}
