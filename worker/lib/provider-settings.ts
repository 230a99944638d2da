/**
 * What a provider choice (EMBEDDER, LLM_PROVIDER) needs besides its name. A missing piece is
 * a deploy error, reported on the first request that needs the provider.
 */
import type { Env } from "../env";
import { ApiError } from "../errors";

type ProviderChoice = "EMBEDDER" | "LLM_PROVIDER";

/** The Workers AI binding a "workers-ai" choice runs on. */
export function requireAiBinding(env: Env, choice: ProviderChoice): Ai {
  if (!env.AI) {
    throw new ApiError(
      "INTERNAL_ERROR",
      `${choice} is "workers-ai" but the Worker has no AI binding (add [ai] binding = "AI" to wrangler.toml)`,
    );
  }
  return env.AI;
}

/** The API base URL an "openai" choice posts to, read from the setting named `urlSetting`. */
export function requireApiUrl(
  url: string | undefined,
  choice: ProviderChoice,
  urlSetting: string,
): string {
  if (!url) {
    throw new ApiError(
      "INTERNAL_ERROR",
      `${choice} is "openai" but ${urlSetting} is not set (e.g. https://api.openai.com/v1)`,
    );
  }
  return url;
}
