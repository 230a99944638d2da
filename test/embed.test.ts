import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "../worker/embed/embedder";
import { cosine, createEmbedder } from "../worker/embed/index";
import { LocalEmbedder, stemWord } from "../worker/embed/local";
import { OpenAiEmbedder, type OpenAiEmbedderOptions } from "../worker/embed/openai";
import { type AiRunner, WorkersAiEmbedder } from "../worker/embed/workers-ai";
import type { Config } from "../worker/env";
import { ApiError } from "../worker/errors";
import { countTokens } from "../worker/lib/tokens";

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** Resolves to the ApiError a promise rejects with, failing the test otherwise. */
async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

describe("LocalEmbedder", () => {
  const local = new LocalEmbedder();
  const one = async (text: string) => {
    const { vectors } = await local.embed([text]);
    const [v] = vectors;
    if (!v) throw new Error("no vector");
    return v;
  };

  // 29 words.
  const base =
    "The quarterly planning meeting with the design team has moved to Thursday afternoon " +
    "because Maria is travelling to the Berlin office for the product launch on Wednesday next week";

  it("is deterministic, 384-dimensional and unit length", async () => {
    const [a, b] = (await local.embed([base, base])).vectors;
    const c = await one(base);
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(a).toEqual(b);
    expect(a).toEqual(c);
    expect(norm(c)).toBeCloseTo(1, 10);
    expect(local.model).toBe("local-lexical-v1");
  });

  // Measured figures (local-lexical-v1), which the assertions bracket:
  //   identical text                                   1.000
  //   one content word of 29 changed (Thursday→Friday) 0.938 (other words: 0.936–0.955)
  //   one stop word changed ("the design"→"a design")  0.9996
  //   clauses reordered (same words)                   0.9999
  //   every word reversed                              0.933 (only the word pairs differ)
  //   upper-cased with "!!!" appended                  1.000
  //   unrelated sentence                               −0.015
  //   "Deploying the new services" / "deployed a new service"  0.904 (stems + trigrams)
  //   "car" / "automobile"                             0.000 (lexical: no notion of synonyms)
  // So with the store's 0.95 dedup threshold, a one-word edit of a ~30-word memory usually
  // stays a separate memory, while case, punctuation and stop-word edits merge.
  it("scores shared words high and unrelated text near zero", async () => {
    const a = await one(base);
    expect(cosine(a, await one(base))).toBeCloseTo(1, 10);

    const oneWord = cosine(a, await one(base.replace("Thursday", "Friday")));
    expect(oneWord).toBeGreaterThan(0.9);
    expect(oneWord).toBeLessThan(0.95);

    expect(cosine(a, await one(base.replace("the design", "a design")))).toBeGreaterThan(0.99);

    const reordered =
      "Because Maria is travelling to the Berlin office for the product launch on Wednesday " +
      "next week, the quarterly planning meeting with the design team has moved to Thursday afternoon";
    expect(cosine(a, await one(reordered))).toBeGreaterThan(0.99);
    const reversed = cosine(a, await one(base.split(" ").reverse().join(" ")));
    expect(reversed).toBeGreaterThan(0.9);
    expect(reversed).toBeLessThan(0.97);

    expect(cosine(a, await one(`${base.toUpperCase()}!!!`))).toBeCloseTo(1, 10);

    const unrelated =
      "My favourite recipe for banana bread uses brown sugar, chopped walnuts and a pinch of " +
      "cinnamon, baked for fifty minutes until golden.";
    expect(Math.abs(cosine(a, await one(unrelated)))).toBeLessThan(0.15);

    const morph = cosine(
      await one("Deploying the new services"),
      await one("deployed a new service"),
    );
    expect(morph).toBeGreaterThan(0.8);
    expect(cosine(await one("car"), await one("automobile"))).toBeLessThan(0.2);
  });

  it("gives empty and word-less text a fixed unit vector, and stop words a vector of their own", async () => {
    const empty = await one("");
    expect(empty).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(norm(empty)).toBeCloseTo(1, 10);
    expect(empty.every((x) => Number.isFinite(x))).toBe(true);
    expect(await one("   \n\t ")).toEqual(empty);
    expect(await one("?!…")).toEqual(empty);

    const stops = await one("it is what it is");
    expect(norm(stops)).toBeCloseTo(1, 10);
    expect(stops).not.toEqual(empty);
    expect(cosine(stops, await one("what is it"))).toBeGreaterThan(0.5);
  });

  it("treats composed and decomposed accents, and other scripts, as words", async () => {
    expect(await one("café crème")).toEqual(await one("cafe\u0301 cre\u0300me"));
    const jp = await one("東京の会議は木曜日です");
    expect(norm(jp)).toBeCloseTo(1, 10);
    expect(cosine(jp, await one(""))).toBeLessThan(0.5);
  });

  it("stems common inflections conservatively", () => {
    const cases: Record<string, string> = {
      running: "run",
      runs: "run",
      meetings: "meet",
      meeting: "meet",
      studies: "study",
      studied: "study",
      boxes: "box",
      classes: "class",
      quickly: "quick",
      stopped: "stop",
      falling: "fall",
      things: "thing",
      glass: "glass",
      bus: "bus",
      this: "this",
      used: "used",
    };
    for (const [word, stem] of Object.entries(cases)) expect(stemWord(word), word).toBe(stem);
  });

  it("counts tokens with countTokens", async () => {
    const texts = [base, "", "hello world"];
    const { vectors, tokens } = await local.embed(texts);
    expect(vectors).toHaveLength(3);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBe(texts.reduce((s, t) => s + countTokens(t), 0));
    expect(await local.embed([])).toEqual({ vectors: [], tokens: 0 });
  });

  it("embeds a long text", async () => {
    const long = `${base} `.repeat(60).slice(0, 8192);
    const v = await one(long);
    expect(norm(v)).toBeCloseTo(1, 10);
    expect(cosine(v, await one(base))).toBeGreaterThan(0.9);
  });
});

describe("OpenAiEmbedder (fake server)", () => {
  const baseUrl = `${env.FAKE_OPENAI_URL}/v1`;
  const make = (model: string, options: Partial<OpenAiEmbedderOptions> = {}) =>
    new OpenAiEmbedder({ baseUrl, model, apiKey: "sk-test-secret", backoffBaseMs: 5, ...options });

  async function lastRequest(model: string) {
    const res = await fetch(`${env.FAKE_OPENAI_URL}/__last-request?model=${model}`);
    return (await res.json()) as { authorization: string | null; body: Record<string, unknown> };
  }

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

describe("WorkersAiEmbedder", () => {
  /** A fake Ai binding: a deterministic vector per text, recording each batch's size. */
  function fakeAi(shape: (batch: string[]) => unknown = goodOutput) {
    const batches: number[] = [];
    const models: string[] = [];
    const poolings: string[] = [];
    const ai: AiRunner = {
      async run(model, input) {
        models.push(model);
        batches.push(input.text.length);
        poolings.push(input.pooling);
        return shape(input.text);
      },
    };
    return { ai, batches, models, poolings };
  }
  function goodOutput(batch: string[]) {
    const data = batch.map((text) => {
      const v = new Array<number>(384).fill(0);
      v[Number(text.split(" ")[1]) % 384] = 1;
      return v;
    });
    return { shape: [batch.length, 384], data };
  }

  it("embeds in batches of 100, in order, asking for CLS pooling", async () => {
    const { ai, batches, models, poolings } = fakeAi();
    const embedder = new WorkersAiEmbedder(ai);
    const texts = Array.from({ length: 250 }, (_, i) => `text ${i}`);
    const { vectors, tokens } = await embedder.embed(texts);
    expect(batches).toEqual([100, 100, 50]);
    expect(models).toEqual(Array(3).fill("@cf/baai/bge-small-en-v1.5"));
    // Workers AI's default is mean pooling, whose vectors the local model's (CLS) do not match.
    expect(poolings).toEqual(["cls", "cls", "cls"]);
    expect(embedder.model).toBe("@cf/baai/bge-small-en-v1.5");
    expect(vectors).toHaveLength(250);
    vectors.forEach((v, i) => {
      expect(v).toHaveLength(384);
      expect(v[i % 384]).toBe(1);
    });
    expect(tokens).toBe(texts.reduce((s, t) => s + countTokens(t), 0));
  });

  it("rejects output of the wrong shape", async () => {
    const bad: Array<(batch: string[]) => unknown> = [
      () => null,
      () => ({ data: "nope" }),
      (batch) => ({ data: batch.map(() => new Array<number>(383).fill(0.1)) }),
      (batch) => ({ data: batch.slice(1).map(() => new Array<number>(384).fill(0.1)) }),
      (batch) => ({ data: batch.map(() => new Array<number>(384).fill(0)) }),
    ];
    for (const shape of bad) {
      const err = await apiError(new WorkersAiEmbedder(fakeAi(shape).ai).embed(["a", "b"]));
      expect(err.code).toBe("BAD_GATEWAY");
    }
  });

  it("refuses vectors made with another pooling than CLS", async () => {
    const unit = () => new Array<number>(384).fill(1 / Math.sqrt(384));
    const withPooling = (pooling: string) => (batch: string[]) => ({
      data: batch.map(unit),
      pooling,
    });
    const mean = await apiError(new WorkersAiEmbedder(fakeAi(withPooling("mean")).ai).embed(["a"]));
    expect(mean.code).toBe("BAD_GATEWAY");
    expect(mean.message).toContain("mean pooling, not cls");
    const cls = await new WorkersAiEmbedder(fakeAi(withPooling("cls")).ai).embed(["a"]);
    expect(cls.vectors).toHaveLength(1);
    expect(cls.vectors[0]?.[0]).toBeCloseTo(1 / Math.sqrt(384), 12);
  });

  it("reports a failing binding as BAD_GATEWAY", async () => {
    const ai: AiRunner = {
      run: async () => {
        throw new Error("3040: capacity exceeded");
      },
    };
    const err = await apiError(new WorkersAiEmbedder(ai).embed(["a"]));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toContain("capacity exceeded");
  });
});

describe("createEmbedder", () => {
  const config = (over: Partial<Config>): Config => ({
    DATABASE_URL: "postgres://x",
    JWT_SECRET: "x".repeat(32),
    AUTH_MESSAGE_PREFIX: "service-auth",
    EMBEDDER: "local",
    ...over,
  });

  it("picks the configured embedder", () => {
    expect(createEmbedder(config({}), {}).model).toBe("local-lexical-v1");
    expect(
      createEmbedder(
        config({ EMBEDDER: "openai", EMBEDDING_API_URL: "https://api.example/v1" }),
        {},
      ).model,
    ).toBe("text-embedding-3-small");
    expect(
      createEmbedder(
        config({ EMBEDDER: "openai", EMBEDDING_API_URL: "https://x/v1", EMBEDDING_MODEL: "m" }),
        {},
      ).model,
    ).toBe("m");
  });

  it("explains a missing URL or AI binding", () => {
    const noUrl = () => createEmbedder(config({ EMBEDDER: "openai" }), {});
    expect(noUrl).toThrow(ApiError);
    expect(noUrl).toThrow(/EMBEDDING_API_URL/);
    const noAi = () => createEmbedder(config({ EMBEDDER: "workers-ai" }), {});
    expect(noAi).toThrow(/AI binding/);
  });
});
