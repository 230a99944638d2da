/** The OpenAI-compatible embedder against the fake server: batching, retries, timeouts, bad answers. */
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "../../worker/embed/embedder";
import { OpenAiEmbedder, type OpenAiEmbedderOptions } from "../../worker/embed/openai";
import { countTokens } from "../../worker/lib/tokens";
import { apiError, fakeOpenAiUrl, lastRequest, norm } from "../providers";

describe("OpenAiEmbedder (fake server)", () => {
  const baseUrl = fakeOpenAiUrl();
  const make = (model: string, options: Partial<OpenAiEmbedderOptions> = {}) =>
    new OpenAiEmbedder({ baseUrl, model, apiKey: "sk-test-secret", backoffBaseMs: 5, ...options });

  it("embeds 150 inputs in two requests, in order, with the provider's token count", async () => {
    // A model name of its own, so concurrent test files can't overwrite the recorded request.
    const model = `happy-${crypto.randomUUID()}`;
    const calls: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as { input: string[] };
      calls.push(body.input.length);
      return fetch(input, init);
    };
    const embedder = make(model, { fetch: counting });
    const texts = Array.from({ length: 150 }, (_, i) => `memory number ${i}`);
    const { vectors, tokens } = await embedder.embed(texts);

    expect(calls).toEqual([100, 50]);
    expect(vectors).toHaveLength(150);
    for (const v of vectors) {
      expect(v).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(norm(v)).toBeCloseTo(1, 6);
    }
    // The fake answers in reverse index order; each batch vector must match its own text.
    const singles = await embedder.embed([
      "memory number 0",
      "memory number 99",
      "memory number 149",
    ]);
    expect(singles.vectors[0]).toEqual(vectors[0]);
    expect(singles.vectors[1]).toEqual(vectors[99]);
    expect(singles.vectors[2]).toEqual(vectors[149]);
    expect(vectors[0]).not.toEqual(vectors[1]);

    // The fake counts one token per started 4 characters.
    expect(tokens).toBe(texts.reduce((s, t) => s + Math.ceil(t.length / 4), 0));

    const last = await lastRequest(model);
    expect(last.authorization).toBe("Bearer sk-test-secret");
    expect(last.body).toMatchObject({ model, dimensions: 384, encoding_format: "float" });
  });

  it("sends no Authorization header without a key", async () => {
    const model = `nokey-${crypto.randomUUID()}`;
    await make(model, { apiKey: undefined }).embed(["x"]);
    expect((await lastRequest(model)).authorization).toBeNull();
  });

  it("retries a 503 and a 429", async () => {
    for (const model of ["flaky", "rate-limited"]) {
      const statuses: number[] = [];
      const recording: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        statuses.push(res.status);
        return res;
      };
      // The fake fails the first time it sees a body, so each run needs fresh input.
      const { vectors } = await make(model, { fetch: recording }).embed([crypto.randomUUID()]);
      expect(vectors[0]).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(statuses).toEqual([model === "flaky" ? 503 : 429, 200]);
    }
  });

  it("gives up after 3 attempts on a 500, without leaking the key", async () => {
    let attempts = 0;
    const counting: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const err = await apiError(make("fail-500", { fetch: counting }).embed(["x"]));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toBe("Embedding provider failed: HTTP 500");
    expect(err.message).not.toContain("sk-test-secret");
    expect(attempts).toBe(3);
  });

  it("does not retry other 4xx", async () => {
    let attempts = 0;
    const unauthorized: typeof fetch = async () => {
      attempts++;
      return new Response('{"error":{"message":"Incorrect API key provided: sk-test-secret"}}', {
        status: 401,
      });
    };
    const err = await apiError(make("any", { fetch: unauthorized }).embed(["x"]));
    expect(err.message).toBe("Embedding provider failed: HTTP 401");
    expect(attempts).toBe(1);
  });

  it("rejects vectors of the wrong dimension", async () => {
    const err = await apiError(make("wrong-dims").embed(["x"]));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toContain("expected 384 dimensions, got 10");
  });

  it("rejects a malformed or short response", async () => {
    const reply =
      (body: unknown): typeof fetch =>
      async () =>
        Response.json(body);
    const malformed = await apiError(make("m", { fetch: reply({ nope: true }) }).embed(["x"]));
    expect(malformed.code).toBe("BAD_GATEWAY");
    const vector = Array.from({ length: 384 }, () => 0.05);
    const short = await apiError(
      make("m", { fetch: reply({ data: [{ index: 0, embedding: vector }] }) }).embed(["a", "b"]),
    );
    expect(short.message).toContain("expected 2 embeddings, got 1");
  });

  it("counts tokens itself when the provider reports no usage", async () => {
    const vector = Array.from({ length: 384 }, () => 0.05);
    const noUsage: typeof fetch = async () =>
      Response.json({ data: [{ index: 0, embedding: vector }] });
    const { tokens } = await make("m", { fetch: noUsage }).embed(["hello world"]);
    expect(tokens).toBe(countTokens("hello world"));
  });

  it("times out a slow provider", async () => {
    const err = await apiError(make("slow", { timeoutMs: 300 }).embed(["x"]));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toBe("Embedding provider failed: timed out after 300 ms");
  });

  it("reports an unreachable provider as a network error", async () => {
    const down: typeof fetch = async () => {
      throw new TypeError("connection refused");
    };
    const err = await apiError(make("m", { fetch: down }).embed(["x"]));
    expect(err.message).toBe("Embedding provider failed: network error (connection refused)");
  });
});
