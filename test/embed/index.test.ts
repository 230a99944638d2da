/** createEmbedder: the embedder EMBEDDER names, and the deploy errors of a missing setting. */
import { describe, expect, it } from "vitest";
import { createEmbedder } from "../../worker/embed/index";
import { ApiError } from "../../worker/errors";
import { configWith } from "../providers";

describe("createEmbedder", () => {
  it("picks the configured embedder", () => {
    expect(createEmbedder(configWith({}), {}).model).toBe("local-lexical-v1");
    expect(
      createEmbedder(
        configWith({ EMBEDDER: "openai", EMBEDDING_API_URL: "https://api.example/v1" }),
        {},
      ).model,
    ).toBe("text-embedding-3-small");
    expect(
      createEmbedder(
        configWith({ EMBEDDER: "openai", EMBEDDING_API_URL: "https://x/v1", EMBEDDING_MODEL: "m" }),
        {},
      ).model,
    ).toBe("m");
  });

  it("explains a missing URL or AI binding", () => {
    const noUrl = () => createEmbedder(configWith({ EMBEDDER: "openai" }), {});
    expect(noUrl).toThrow(ApiError);
    expect(noUrl).toThrow(/EMBEDDING_API_URL/);
    const noAi = () => createEmbedder(configWith({ EMBEDDER: "workers-ai" }), {});
    expect(noAi).toThrow(/AI binding/);
  });
});
