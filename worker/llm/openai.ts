/**
 * Any OpenAI-compatible POST {base}/chat/completions (OpenAI, OpenRouter, vLLM, Ollama…),
 * asked for JSON with `response_format: {type: "json_object"}` at temperature 0. Prompts,
 * validation and the malformed-output retries are prompts.ts's.
 *
 * Transport: 429, 5xx, timeouts and network errors are retried with exponential backoff
 * (base × 2^n, or Retry-After in seconds when sent, capped at 2 s), `maxAttempts` in all;
 * other 4xx fail at once. An answer without a message text (a refusal, a cut-off) counts as
 * malformed output. Tokens: the provider's `usage.total_tokens`, else countTokens of the
 * prompt and the answer. Error messages never include the provider's response body, which
 * may echo the key.
 *
 * judgeUpdates: whether newer facts replace older ones, for ingest's and extract's store
 * (judge.ts); a failure there never fails the store, the rules answer instead.
 */
import { z } from "zod";
import { ApiError } from "../errors";
import type { ChatMessage, Fact, LlmProvider } from "../language-model";
import {
  type ProviderHttpOptions,
  postJsonWithRetry,
  type RetryingPost,
  retryingPost,
} from "../lib/provider-http";
import { countTokens } from "../lib/tokens";
import type { JudgedPair, UpdatePair } from "../memories/updates/plan";
import { judgeUpdatesWith } from "./judge";
import { type Completion, extractionTask, isBlank, runStructured, synthesisTask } from "./prompts";

/**
 * Defaults: timeout 30 s per attempt, first retry after 250 ms, 3 HTTP attempts per answer.
 * An update judgement, which the rules answer when the model does not, waits less: 15 s per
 * attempt, at most 2 attempts (`timeoutMs` and a lower `maxAttempts` apply to it too).
 */
export interface OpenAiChatProviderOptions extends ProviderHttpOptions {
  model: string;
}

const responseSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish() }).nullish() }))
    .min(1),
  usage: z.object({ total_tokens: z.number().optional() }).nullish(),
});

export class OpenAiChatProvider implements LlmProvider {
  readonly name: string;
  private readonly model: string;
  private readonly http: RetryingPost;
  private readonly judgeHttp: RetryingPost;

  constructor(options: OpenAiChatProviderOptions) {
    this.model = options.model;
    this.name = `openai:${options.model}`;
    this.http = retryingPost(options, {
      path: "/chat/completions",
      timeoutMs: 30_000,
      backoffBaseMs: 250,
      fail: (reason, exhausted) =>
        providerError(exhausted ? `${reason}, after ${this.http.maxAttempts} attempts` : reason),
    });
    this.judgeHttp = retryingPost(
      { ...options, maxAttempts: Math.min(options.maxAttempts ?? JUDGE_ATTEMPTS, JUDGE_ATTEMPTS) },
      {
        path: "/chat/completions",
        timeoutMs: 15_000,
        backoffBaseMs: 250,
        fail: (reason, exhausted) =>
          providerError(
            exhausted ? `${reason}, after ${this.judgeHttp.maxAttempts} attempts` : reason,
          ),
      },
    );
  }

  async extractFacts(messages: ChatMessage[]): Promise<{ facts: Fact[]; tokens: number }> {
    if (isBlank(messages)) return { facts: [], tokens: 0 };
    const { value, tokens } = await runStructured(extractionTask(messages), (m) =>
      this.complete(m),
    );
    return { facts: value, tokens };
  }

  async synthesize(memories: string[]): Promise<{ content: string; tokens: number }> {
    const { value, tokens } = await runStructured(synthesisTask(memories), (m) => this.complete(m));
    return { content: value, tokens };
  }

  /** Whether newer facts replace older ones (judge.ts); the rules answer what the model does not. */
  judgeUpdates(pairs: UpdatePair[]): Promise<{ verdicts: JudgedPair[]; tokens: number }> {
    return judgeUpdatesWith(
      {
        detectedBy: "openai",
        model: this.model,
        complete: (m) => this.complete(m, this.judgeHttp),
      },
      pairs,
    );
  }

  private async complete(messages: ChatMessage[], http = this.http): Promise<Completion> {
    const json = await postJsonWithRetry(
      http,
      JSON.stringify({
        model: this.model,
        messages,
        temperature: 0,
        response_format: { type: "json_object" },
      }),
    );
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) throw providerError("unexpected response shape");
    const content = parsed.data.choices[0]?.message?.content ?? "";
    const reported = parsed.data.usage?.total_tokens;
    const tokens =
      reported ?? messages.reduce((sum, m) => sum + countTokens(m.content), countTokens(content));
    // An empty answer goes to validation, which reports it as malformed and retries.
    return { output: content, tokens };
  }
}

/** HTTP attempts of an update judgement, at most. */
const JUDGE_ATTEMPTS = 2;

function providerError(reason: string): ApiError {
  return new ApiError("BAD_GATEWAY", `Language model provider failed: ${reason}`);
}
