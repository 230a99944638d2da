/** createEmbedder: the embedder EMBEDDER names, and the deploy errors of a missing setting. */
import { describe, expect, it } from "vitest";
import { createEmbedder } from "../../worker/embed/index";
import type { Config } from "../../worker/env";
import { ApiError } from "../../worker/errors";
import { configWith } from "../providers";

describe("createEmbedder", () => {
  it.each<[settings: Partial<Config>, model: string]>([
    [{}, "local-lexical-v1"],
    [{ EMBEDDER: "openai", EMBEDDING_API_URL: "https://api.example/v1" }, "text-embedding-3-small"],
    [{ EMBEDDER: "openai", EMBEDDING_API_URL: "https://x/v1", EMBEDDING_MODEL: "m" }, "m"],
  ])("picks the configured embedder: %j → %s", (settings, model) => {
    expect(createEmbedder(configWith(settings), {}).model).toBe(model);
  });

  it("explains a missing URL or AI binding", () => {
    const noUrl = () => createEmbedder(configWith({ EMBEDDER: "openai" }), {});
    expect(noUrl).toThrow(ApiError);
    expect(noUrl).toThrow(/EMBEDDING_API_URL/);
    const noAi = () => createEmbedder(configWith({ EMBEDDER: "workers-ai" }), {});
    expect(noAi).toThrow(/AI binding/);
  });
});
