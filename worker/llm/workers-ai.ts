/**
 * Workers AI (the `AI` binding), an instruct model in JSON mode:
 * `run(model, {messages, response_format: {type: "json_schema", json_schema}, max_tokens,
 * temperature: 0})`. Prompts, validation and the malformed-output retries are prompts.ts's.
 *
 * Answers come back as `{response}` (an object in JSON mode, sometimes a string) or, for
 * some models, OpenAI-style `{choices: [{message: {content}}]}`; either is read. The binding's
 * error "JSON Mode couldn't be met" is malformed output (retried with a correction); errors
 * that no retry can fix (unknown model, rejected input) fail at once; any other error and
 * a timeout (the binding has none of its own) are retried with exponential backoff,
 * `maxAttempts` in all. Tokens: `usage.total_tokens` when reported, else countTokens.
 *
 * judgeUpdates: whether newer facts replace older ones, for ingest's and extract's store
 * (judge.ts); a failure there never fails the store, the rules answer instead.
 */
import { z } from "zod";
import { ApiError } from "../errors";
import type { ChatMessage, Fact, LlmProvider } from "../language-model";
import { describeError, sleep } from "../lib/provider-http";
import { countTokens } from "../lib/tokens";
import type { JudgedPair, UpdatePair } from "../memories/updates/plan";
import { judgeUpdatesWith } from "./judge";
import {
  type Completion,
  extractionTask,
  isBlank,
  MAX_OUTPUT_TOKENS,
  runStructured,
  synthesisTask,
} from "./prompts";

/** In Workers AI's list of JSON-mode models; small, fast and cheap. */
export const WORKERS_AI_LLM_MODEL = "@cf/meta/llama-3.1-8b-instruct";

export interface WorkersAiChatInput {
  messages: ChatMessage[];
  response_format: { type: "json_schema"; json_schema: Record<string, unknown> };
  max_tokens: number;
  temperature: number;
}

/**
 * The part of the `Ai` binding this provider uses; the real binding satisfies it, and tests
 * pass a fake.
 */
export interface AiTextRunner {
  run(model: string, input: WorkersAiChatInput): Promise<unknown>;
}

export interface WorkersAiProviderOptions {
  model?: string;
  /**
   * Per-attempt timeout. Default 30 s; 15 s for an update judgement, which also makes at most
   * 2 attempts (the rules answer what the model does not).
   */
  timeoutMs?: number;
  /** First retry delay; later ones double. Default 250 ms. */
  backoffBaseMs?: number;
  /** Attempts per answer, the first included. Default 3. */
  maxAttempts?: number;
}

// OpenAI-style first: `response` is optional, so that variant would also match a `choices` answer.
const outputSchema = z.union([
  z.object({
    choices: z
      .array(z.object({ message: z.object({ content: z.string().nullish() }).nullish() }))
      .min(1),
    usage: z.object({ total_tokens: z.number().optional() }).nullish(),
  }),
  z.object({
    response: z.unknown(),
    usage: z.object({ total_tokens: z.number().optional() }).nullish(),
  }),
]);

const PERMANENT = /no such model|model not found|invalid input|input validation|\b500[67]\b/i;
const JSON_MODE_FAILED = /json mode couldn'?t be met/i;

export class WorkersAiProvider implements LlmProvider {
  readonly name: string;
  private readonly model: string;
  private readonly timeoutMs: number;
  private readonly backoffBaseMs: number;
  private readonly maxAttempts: number;
  private readonly judgeLimits: Limits;

  constructor(
    private readonly ai: AiTextRunner,
    options: WorkersAiProviderOptions = {},
  ) {
    this.model = options.model ?? WORKERS_AI_LLM_MODEL;
    this.name = `workers-ai:${this.model}`;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.backoffBaseMs = options.backoffBaseMs ?? 250;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.judgeLimits = {
      timeoutMs: options.timeoutMs ?? 15_000,
      maxAttempts: Math.min(this.maxAttempts, 2),
    };
  }

  async extractFacts(messages: ChatMessage[]): Promise<{ facts: Fact[]; tokens: number }> {
    if (isBlank(messages)) return { facts: [], tokens: 0 };
    const { value, tokens } = await runStructured(extractionTask(messages), (m, schema) =>
      this.complete(m, schema),
    );
    return { facts: value, tokens };
  }

  async synthesize(memories: string[]): Promise<{ content: string; tokens: number }> {
    const { value, tokens } = await runStructured(synthesisTask(memories), (m, schema) =>
      this.complete(m, schema),
    );
    return { content: value, tokens };
  }

  /** Whether newer facts replace older ones (judge.ts); the rules answer what the model does not. */
  judgeUpdates(pairs: UpdatePair[]): Promise<{ verdicts: JudgedPair[]; tokens: number }> {
    return judgeUpdatesWith(
      {
        detectedBy: "workers-ai",
        model: this.model,
        complete: (m, schema) => this.complete(m, schema, this.judgeLimits),
      },
      pairs,
    );
  }

  private async complete(
    messages: ChatMessage[],
    jsonSchema: Record<string, unknown>,
    { timeoutMs, maxAttempts }: Limits = {
      timeoutMs: this.timeoutMs,
      maxAttempts: this.maxAttempts,
    },
  ): Promise<Completion> {
    const input: WorkersAiChatInput = {
      messages,
      response_format: { type: "json_schema", json_schema: jsonSchema },
      max_tokens: MAX_OUTPUT_TOKENS,
      temperature: 0,
    };
    const prompt = messages.reduce((sum, m) => sum + countTokens(m.content), 0);
    let failure = "no attempt made";
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        const raw = await withTimeout(this.ai.run(this.model, input), timeoutMs);
        const parsed = outputSchema.safeParse(raw);
        // A shape we can't read is the model's answer being unusable: validation retries it.
        if (!parsed.success) return { output: undefined, tokens: prompt };
        const output =
          "choices" in parsed.data
            ? (parsed.data.choices[0]?.message?.content ?? "")
            : parsed.data.response;
        const text = typeof output === "string" ? output : JSON.stringify(output ?? "");
        return {
          output,
          tokens: parsed.data.usage?.total_tokens ?? prompt + countTokens(text),
        };
      } catch (err) {
        const message = describeError(err);
        if (JSON_MODE_FAILED.test(message)) return { output: undefined, tokens: prompt };
        if (PERMANENT.test(message)) throw providerError(message);
        failure = message;
      }
      if (attempt < maxAttempts) await sleep(this.backoffBaseMs * 2 ** (attempt - 1));
    }
    throw providerError(`${failure}, after ${maxAttempts} attempts`);
  }
}

/** Per-attempt timeout and attempts of one answer. */
interface Limits {
  timeoutMs: number;
  maxAttempts: number;
}

class Timeout extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** The binding cannot be cancelled; past the timeout its answer is simply not waited for. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function providerError(reason: string): ApiError {
  return new ApiError("BAD_GATEWAY", `Language model provider failed: ${reason}`);
}
