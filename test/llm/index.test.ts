/** createLlmProvider: the provider LLM_PROVIDER names, and the deploy errors of a missing setting. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../worker/errors";
import { createLlmProvider } from "../../worker/llm/index";
import { WORKERS_AI_LLM_MODEL } from "../../worker/llm/workers-ai";
import { configWith } from "../providers";

describe("createLlmProvider", () => {
  it("picks the configured provider, rules by default", () => {
    expect(createLlmProvider(configWith({}), {}).name).toBe("rules-v1");
    expect(createLlmProvider(configWith({ LLM_PROVIDER: "rules" }), {}).name).toBe("rules-v1");
    expect(
      createLlmProvider(
        configWith({ LLM_PROVIDER: "openai", LLM_API_URL: "https://api.example/v1" }),
        {},
      ).name,
    ).toBe("openai:gpt-4o-mini");
    expect(
      createLlmProvider(
        configWith({ LLM_PROVIDER: "openai", LLM_API_URL: "https://x/v1", LLM_MODEL: "m" }),
        {},
      ).name,
    ).toBe("openai:m");
    const ai = { run: async () => ({}) } as unknown as Ai;
    expect(createLlmProvider(configWith({ LLM_PROVIDER: "workers-ai" }), { AI: ai }).name).toBe(
      `workers-ai:${WORKERS_AI_LLM_MODEL}`,
    );
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
