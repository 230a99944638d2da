/** createLlmProvider: the provider LLM_PROVIDER names, and the deploy errors of a missing setting. */
import { describe, expect, it } from "vitest";
import type { Config } from "../../worker/env";
import { ApiError } from "../../worker/errors";
import { createLlmProvider } from "../../worker/llm/index";
import { WORKERS_AI_LLM_MODEL } from "../../worker/llm/workers-ai";
import { configWith } from "../providers";

describe("createLlmProvider", () => {
  const ai = { run: async () => ({}) } as unknown as Ai;

  it.each<[settings: Partial<Config>, env: { AI?: Ai }, name: string]>([
    [{}, {}, "rules-v1"],
    [{ LLM_PROVIDER: "rules" }, {}, "rules-v1"],
    [{ LLM_PROVIDER: "openai", LLM_API_URL: "https://api.example/v1" }, {}, "openai:gpt-4o-mini"],
    [{ LLM_PROVIDER: "openai", LLM_API_URL: "https://x/v1", LLM_MODEL: "m" }, {}, "openai:m"],
    [{ LLM_PROVIDER: "workers-ai" }, { AI: ai }, `workers-ai:${WORKERS_AI_LLM_MODEL}`],
  ])("picks the configured provider, rules by default: %j → %s", (settings, env, name) => {
    expect(createLlmProvider(configWith(settings), env).name).toBe(name);
  });

  it("explains a missing URL or AI binding", () => {
    const noUrl = () => createLlmProvider(configWith({ LLM_PROVIDER: "openai" }), {});
    expect(noUrl).toThrow(ApiError);
    expect(noUrl).toThrow(/LLM_API_URL/);
    expect(() => createLlmProvider(configWith({ LLM_PROVIDER: "workers-ai" }), {})).toThrow(
      /AI binding/,
    );
  });
});
