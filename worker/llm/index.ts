import type { Config, Env } from "../env";
import type { LlmProvider } from "../language-model";
import { requireAiBinding, requireApiUrl } from "../lib/provider-settings";
import { OpenAiChatProvider } from "./openai";
import { RulesProvider } from "./rules";
import { WorkersAiProvider } from "./workers-ai";

export type { ChatMessage, Fact, LlmProvider } from "../language-model";

export const DEFAULT_OPENAI_LLM_MODEL = "gpt-4o-mini";

/** The rules provider holds no state, so one instance serves every request. */
const rules = new RulesProvider();

/** Picks the provider named by LLM_PROVIDER; a missing companion setting is a deploy error. */
export function createLlmProvider(config: Config, env: Env): LlmProvider {
  switch (config.LLM_PROVIDER ?? "rules") {
    case "rules":
      return rules;
    case "workers-ai":
      return new WorkersAiProvider(requireAiBinding(env, "LLM_PROVIDER"), {
        model: config.LLM_MODEL,
      });
    case "openai":
      return new OpenAiChatProvider({
        baseUrl: requireApiUrl(config.LLM_API_URL, "LLM_PROVIDER", "LLM_API_URL"),
        apiKey: config.LLM_API_KEY,
        model: config.LLM_MODEL ?? DEFAULT_OPENAI_LLM_MODEL,
      });
  }
}
