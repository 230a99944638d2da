/** What the tests of the embedders and the language-model providers share. */
import { env } from "cloudflare:workers";
import type { Config } from "../worker/env";
import { ApiError } from "../worker/errors";
import type { AiTextRunner, WorkersAiChatInput } from "../worker/llm/workers-ai";

/** Resolves to the ApiError a promise rejects with, failing the test otherwise. */
export async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

/** A vector's Euclidean length. */
export const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** A valid configuration with the local embedder, changed by `over`. */
export const configWith = (over: Partial<Config>): Config => ({
  DATABASE_URL: "postgres://x",
  JWT_SECRET: "x".repeat(32),
  AUTH_MESSAGE_PREFIX: "service-auth",
  EMBEDDER: "local",
  ...over,
});

/** The fake OpenAI server's base URL (test/fake-openai-server.ts). */
export const fakeOpenAiUrl = () => `${env.FAKE_OPENAI_URL}/v1`;

/** The last request the fake OpenAI server received for `model`. */
export async function lastRequest(model: string) {
  const res = await fetch(`${env.FAKE_OPENAI_URL}/__last-request?model=${model}`);
  return (await res.json()) as { authorization: string | null; body: Record<string, unknown> };
}

/** How many embeddings and chat requests named `model` the fake OpenAI server has received. */
export async function callsOf(model: string): Promise<{ embeddings: number; chat: number }> {
  const res = await fetch(`${env.FAKE_OPENAI_URL}/__calls?model=${encodeURIComponent(model)}`);
  return (await res.json()) as { embeddings: number; chat: number };
}

/**
 * Worker variables that embed and call a language model through the fake OpenAI server under a
 * model name of the test's own, so that callsOf(model) counts exactly its requests' calls.
 */
export const countedProviders = (model: string) => ({
  EMBEDDER: "openai",
  EMBEDDING_API_URL: fakeOpenAiUrl(),
  EMBEDDING_MODEL: model,
  LLM_PROVIDER: "openai",
  LLM_API_URL: fakeOpenAiUrl(),
  LLM_MODEL: model,
});

/**
 * A Workers AI binding answering with each of `answers` in turn (a thrown Error, or an
 * output), the last one again once they run out; `calls` records what it was asked.
 */
export function fakeAi(...answers: unknown[]) {
  const calls: Array<{ model: string; input: WorkersAiChatInput }> = [];
  const ai: AiTextRunner = {
    run: async (model, input) => {
      calls.push({ model, input });
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { ai, calls };
}
