import type { Config, Env } from "../env";
import { ApiError } from "../errors";
import { OpenAiChatProvider } from "./openai";
import type { LlmProvider } from "./provider";
import { RulesProvider } from "./rules";
import { WorkersAiProvider } from "./workers-ai";

export type { ChatMessage, Fact, LlmProvider } from "./provider";

export const DEFAULT_OPENAI_LLM_MODEL = "gpt-4o-mini";

/** The rules provider holds no state, so one instance serves every request. */
const rules = new RulesProvider();

/** Picks the provider named by LLM_PROVIDER; a missing companion setting is a deploy error. */
export function createLlmProvider(config: Config, env: Env): LlmProvider {
  switch (config.LLM_PROVIDER ?? "rules") {
    case "rules":
      return rules;
    case "workers-ai":
      if (!env.AI) {
        throw new ApiError(
          "INTERNAL_ERROR",
          'LLM_PROVIDER is "workers-ai" but the Worker has no AI binding (add [ai] binding = "AI" to wrangler.toml)',
        );
      }
      return new WorkersAiProvider(env.AI, { model: config.LLM_MODEL });
    case "openai":
      if (!config.LLM_API_URL) {
        throw new ApiError(
          "INTERNAL_ERROR",
          'LLM_PROVIDER is "openai" but LLM_API_URL is not set (e.g. https://api.openai.com/v1)',
        );
      }
      return new OpenAiChatProvider({
        baseUrl: config.LLM_API_URL,
        apiKey: config.LLM_API_KEY,
        model: config.LLM_MODEL ?? DEFAULT_OPENAI_LLM_MODEL,
      });
  }
}
