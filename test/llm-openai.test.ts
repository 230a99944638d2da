/**
 * The model-backed language-model providers: the OpenAI-compatible one against the fake
 * server (test/fake-openai-server.ts: good, fenced, malformed once and always, wrong shape,
 * 429, 500, slow), the Workers AI one against a fake binding, the shared parsing and
 * normalisation of prompts.ts, and the provider factory.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Config } from "../worker/env";
import { ApiError } from "../worker/errors";
import { countTokens } from "../worker/lib/tokens";
import { createLlmProvider } from "../worker/llm/index";
import { OpenAiChatProvider, type OpenAiChatProviderOptions } from "../worker/llm/openai";
import {
  EXTRACTION_PROMPT,
  FACTS_JSON_SCHEMA,
  normaliseFacts,
  parseJsonLoose,
  SYNTHESIS_JSON_SCHEMA,
} from "../worker/llm/prompts";
import type { ChatMessage } from "../worker/llm/provider";
import {
  type AiTextRunner,
  WORKERS_AI_LLM_MODEL,
  type WorkersAiChatInput,
  WorkersAiProvider,
} from "../worker/llm/workers-ai";

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

/** A conversation no other test sends: the fake remembers bodies it has failed once. */
function conversation(): ChatMessage[] {
  const tag = crypto.randomUUID().slice(0, 8);
  return [
    { role: "user", content: `My project code is ${tag}. I prefer dark mode.` },
    { role: "assistant", content: "Noted, I will remember that." },
    { role: "user", content: "The deadline is Friday." },
  ];
}

const factsOf = (messages: ChatMessage[]) =>
  messages
    .filter((m) => m.role === "user")
    .flatMap((m) => m.content.split(/(?<=[.!?])\s+/))
    .map((s) => s.replace(/\.$/, ""));

/** The fake's token count: one per started 4 characters. */
const fakeTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

describe("OpenAiChatProvider (fake server)", () => {
  const baseUrl = `${env.FAKE_OPENAI_URL}/v1`;
  const make = (model: string, options: Partial<OpenAiChatProviderOptions> = {}) =>
    new OpenAiChatProvider({
      baseUrl,
      model,
      apiKey: "sk-test-secret",
      backoffBaseMs: 5,
      ...options,
    });
  /** A fetch that records each response's status. */
  const recording = () => {
    const statuses: number[] = [];
    const bodies: Array<{ messages: ChatMessage[] }> = [];
    const fetchImpl: typeof fetch = async (input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      const res = await fetch(input, init);
      statuses.push(res.status);
      return res;
    };
    return { statuses, bodies, fetch: fetchImpl };
  };
  const unique = (mode: string) => `${mode}:${crypto.randomUUID()}`;

  async function lastRequest(model: string) {
    const res = await fetch(`${env.FAKE_OPENAI_URL}/__last-request?model=${model}`);
    return (await res.json()) as { authorization: string | null; body: Record<string, unknown> };
  }

  it("extracts facts as JSON, with the provider's token count", async () => {
    const model = unique("good");
    const messages = conversation();
    const provider = make(model);
    expect(provider.name).toBe(`openai:${model}`);
    const { facts, tokens } = await provider.extractFacts(messages);
    const expected = factsOf(messages).map((content) => ({
      content,
      memory_type: "general" as const,
      importance: 0.5,
    }));
    expect(facts).toEqual(expected);

    const last = await lastRequest(model);
    expect(last.authorization).toBe("Bearer sk-test-secret");
    expect(last.body).toMatchObject({
      model,
      temperature: 0,
      response_format: { type: "json_object" },
    });
    const sent = last.body.messages as ChatMessage[];
    expect(sent).toEqual([
      { role: "system", content: EXTRACTION_PROMPT },
      { role: "user", content: JSON.stringify(messages) },
    ]);
    // usage.total_tokens of the fake: prompt (each message as JSON) plus the answer.
    const answer = JSON.stringify({ facts: expected });
    const prompt = sent.reduce((sum, m) => sum + fakeTokens(JSON.stringify(m)), 0);
    expect(tokens).toBe(prompt + fakeTokens(answer));
  });

  it("synthesizes one memory", async () => {
    const { content, tokens } = await make(unique("good")).synthesize([
      "The user likes tea",
      "The user likes green tea in the morning",
    ]);
    expect(content).toBe("The user likes tea The user likes green tea in the morning");
    expect(tokens).toBeGreaterThan(0);
  });

  it("repairs an answer in a code fence without asking again", async () => {
    const rec = recording();
    const messages = conversation();
    const { facts } = await make(unique("fenced"), { fetch: rec.fetch }).extractFacts(messages);
    expect(facts.map((f) => f.content)).toEqual(factsOf(messages));
    expect(rec.statuses).toEqual([200]);
  });

  it("retries malformed output once, showing the model its answer, and counts both", async () => {
    const rec = recording();
    const messages = conversation();
    const model = unique("malformed-once");
    const { facts, tokens } = await make(model, { fetch: rec.fetch }).extractFacts(messages);
    expect(facts.map((f) => f.content)).toEqual(factsOf(messages));
    expect(rec.statuses).toEqual([200, 200]);
    const retry = rec.bodies[1]?.messages ?? [];
    expect(retry).toHaveLength(4);
    expect(retry.slice(0, 2)).toEqual(rec.bodies[0]?.messages);
    expect(retry[2]?.role).toBe("assistant");
    expect(retry[2]?.content).toContain("Here are the facts");
    expect(retry[3]).toMatchObject({ role: "user" });
    expect(retry[3]?.content).toContain("not JSON");
    const answer = JSON.stringify({ facts: facts });
    const second =
      retry.reduce((sum, m) => sum + fakeTokens(JSON.stringify(m)), 0) + fakeTokens(answer);
    expect(tokens).toBeGreaterThan(second);
  });

  it("fails with BAD_GATEWAY after 3 malformed answers, or 3 of the wrong shape", async () => {
    for (const mode of ["malformed", "wrong-shape"]) {
      const rec = recording();
      const err = await apiError(
        make(unique(mode), { fetch: rec.fetch }).extractFacts(conversation()),
      );
      expect(err.code).toBe("BAD_GATEWAY");
      expect(err.status).toBe(502);
      expect(err.message).toMatch(
        /^Language model returned malformed output for fact extraction 3 times/,
      );
      expect(rec.statuses).toEqual([200, 200, 200]);
    }
    const shape = await apiError(make(unique("wrong-shape")).synthesize(["a", "b"]));
    expect(shape.message).toContain("content");
  });

  it("retries a 429, honouring Retry-After", async () => {
    const rec = recording();
    const messages = conversation();
    const { facts } = await make(unique("rate-limited"), { fetch: rec.fetch }).extractFacts(
      messages,
    );
    expect(facts).toHaveLength(factsOf(messages).length);
    expect(rec.statuses).toEqual([429, 200]);
  });

  it("gives up on a 500 after 3 attempts, without leaking the key", async () => {
    const rec = recording();
    const err = await apiError(make("fail-500", { fetch: rec.fetch }).extractFacts(conversation()));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toBe("Language model provider failed: HTTP 500, after 3 attempts");
    expect(err.message).not.toContain("sk-test-secret");
    expect(rec.statuses).toEqual([500, 500, 500]);
  });

  it("times out a slow provider on every attempt", async () => {
    const started = Date.now();
    const err = await apiError(
      make(unique("slow"), { timeoutMs: 200, maxAttempts: 2 }).extractFacts(conversation()),
    );
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toBe(
      "Language model provider failed: timed out after 200 ms, after 2 attempts",
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("retries network errors, and does not retry other 4xx", async () => {
    let calls = 0;
    const down: typeof fetch = async () => {
      calls++;
      throw new TypeError("connection refused");
    };
    const err = await apiError(make("x", { fetch: down }).extractFacts(conversation()));
    expect(err.message).toMatch(/network error \(connection refused\), after 3 attempts/);
    expect(calls).toBe(3);

    calls = 0;
    const unauthorized: typeof fetch = async () => {
      calls++;
      return new Response('{"error":{"message":"Incorrect API key provided: sk-test-secret"}}', {
        status: 401,
      });
    };
    const denied = await apiError(make("x", { fetch: unauthorized }).extractFacts(conversation()));
    expect(denied.message).toBe("Language model provider failed: HTTP 401");
    expect(calls).toBe(1);
  });

  it("counts tokens itself when the provider reports no usage", async () => {
    const answer = JSON.stringify({ facts: [{ content: "The user likes tea" }] });
    const noUsage: typeof fetch = async () =>
      Response.json({ choices: [{ message: { role: "assistant", content: answer } }] });
    const messages: ChatMessage[] = [{ role: "user", content: "I like tea." }];
    const { facts, tokens } = await make("x", { fetch: noUsage }).extractFacts(messages);
    // No type or importance from the model: the keyword rules decide them.
    expect(facts).toEqual([
      { content: "The user likes tea", memory_type: "preference", importance: 0.8 },
    ]);
    const sent = [EXTRACTION_PROMPT, JSON.stringify(messages)];
    expect(tokens).toBe(sent.reduce((s, t) => s + countTokens(t), countTokens(answer)));
  });

  it("sends nothing for a conversation without text", async () => {
    let calls = 0;
    const never: typeof fetch = async () => {
      calls++;
      throw new Error("not expected");
    };
    expect(
      await make("x", { fetch: never }).extractFacts([{ role: "user", content: "  " }]),
    ).toEqual({ facts: [], tokens: 0 });
    expect(calls).toBe(0);
  });
});

describe("WorkersAiProvider (fake binding)", () => {
  /** A binding answering with each of `answers` in turn (a thrown Error, or an output). */
  function fakeAi(...answers: unknown[]) {
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
  const facts = {
    facts: [{ content: "The user likes tea", memory_type: "preference", importance: 0.8 }],
  };
  const opts = { backoffBaseMs: 1 };

  it("asks the default model in JSON-schema mode and reads an object response", async () => {
    const { ai, calls } = fakeAi({ response: facts, usage: { total_tokens: 77 } });
    const provider = new WorkersAiProvider(ai, opts);
    expect(provider.name).toBe(`workers-ai:${WORKERS_AI_LLM_MODEL}`);
    expect(await provider.extractFacts([{ role: "user", content: "I like tea." }])).toEqual({
      facts: facts.facts,
      tokens: 77,
    });
    expect(calls[0]?.model).toBe("@cf/meta/llama-3.1-8b-instruct");
    expect(calls[0]?.input).toMatchObject({
      response_format: { type: "json_schema", json_schema: FACTS_JSON_SCHEMA },
      temperature: 0,
    });
    expect(calls[0]?.input.max_tokens).toBeGreaterThanOrEqual(1024);
  });

  it("reads string and OpenAI-style answers, and synthesizes", async () => {
    const fenced = fakeAi({ response: `\`\`\`json\n${JSON.stringify(facts)}\n\`\`\`` });
    const r1 = await new WorkersAiProvider(fenced.ai, opts).extractFacts([
      { role: "user", content: "I like tea." },
    ]);
    expect(r1.facts).toEqual(facts.facts);
    expect(r1.tokens).toBeGreaterThan(0);

    const chat = fakeAi({ choices: [{ message: { content: '{"content": "Merged."}' } }] });
    const provider = new WorkersAiProvider(chat.ai, { ...opts, model: "@cf/other/model" });
    expect((await provider.synthesize(["a", "b"])).content).toBe("Merged.");
    expect(chat.calls[0]?.model).toBe("@cf/other/model");
    expect(chat.calls[0]?.input.response_format.json_schema).toEqual(SYNTHESIS_JSON_SCHEMA);
  });

  it("treats JSON Mode failures as malformed output: retried, then BAD_GATEWAY", async () => {
    const once = fakeAi(new Error("JSON Mode couldn't be met"), { response: facts });
    const { facts: got } = await new WorkersAiProvider(once.ai, opts).extractFacts([
      { role: "user", content: "I like tea." },
    ]);
    expect(got).toEqual(facts.facts);
    expect(once.calls).toHaveLength(2);
    expect(once.calls[1]?.input.messages).toHaveLength(4);

    const always = fakeAi({ response: "I cannot do that" });
    const err = await apiError(
      new WorkersAiProvider(always.ai, opts).extractFacts([{ role: "user", content: "x y z" }]),
    );
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toMatch(/^Language model returned malformed output/);
    expect(always.calls).toHaveLength(3);
  });

  it("retries transient errors and timeouts, and fails at once on permanent ones", async () => {
    const flaky = fakeAi(new Error("3040: Capacity temporarily exceeded"), { response: facts });
    const ok = await new WorkersAiProvider(flaky.ai, opts).extractFacts([
      { role: "user", content: "I like tea." },
    ]);
    expect(ok.facts).toEqual(facts.facts);
    expect(flaky.calls).toHaveLength(2);

    const missing = fakeAi(new Error("5007: No such model @cf/nope"));
    const err = await apiError(
      new WorkersAiProvider(missing.ai, opts).extractFacts([{ role: "user", content: "x y z" }]),
    );
    expect(err.message).toBe("Language model provider failed: 5007: No such model @cf/nope");
    expect(missing.calls).toHaveLength(1);

    let calls = 0;
    const hanging: AiTextRunner = {
      run: () => {
        calls++;
        return new Promise(() => {});
      },
    };
    const slow = await apiError(
      new WorkersAiProvider(hanging, { ...opts, timeoutMs: 30, maxAttempts: 2 }).extractFacts([
        { role: "user", content: "x y z" },
      ]),
    );
    expect(slow.message).toBe(
      "Language model provider failed: timed out after 30 ms, after 2 attempts",
    );
    expect(calls).toBe(2);
  });
});

describe("prompts: reading and normalising answers", () => {
  it("parses JSON as is, in a fence, or inside prose", () => {
    expect(parseJsonLoose('{"a": 1}')).toEqual({ a: 1 });
    expect(parseJsonLoose('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(parseJsonLoose('Sure! {"a": "}{", "b": {"c": 2}} Hope that helps.')).toEqual({
      a: "}{",
      b: { c: 2 },
    });
    expect(parseJsonLoose("no json here")).toBeUndefined();
    expect(parseJsonLoose('{"a": ')).toBeUndefined();
  });

  it("normalises types and importance, drops empty and repeated facts", () => {
    expect(
      normaliseFacts([
        { content: "  The user   prefers tea  ", memory_type: "Preference", importance: 0.7 },
        { content: "We decided to ship on Monday", memory_type: "personal", importance: "high" },
        { content: "The office is in Leeds", importance: "0.3" },
        { content: "Way too important", memory_type: "general", importance: 7 },
        { content: "   ", memory_type: "general", importance: 0.5 },
        { content: "the user prefers TEA!", memory_type: "general", importance: 0.5 },
      ]),
    ).toEqual([
      { content: "The user prefers tea", memory_type: "preference", importance: 0.7 },
      { content: "We decided to ship on Monday", memory_type: "decision", importance: 0.9 },
      { content: "The office is in Leeds", memory_type: "general", importance: 0.3 },
      { content: "Way too important", memory_type: "general", importance: 1 },
    ]);
    const [long] = normaliseFacts([{ content: "word ".repeat(3000) }]);
    expect(long?.content.length).toBeLessThanOrEqual(8192);
  });

  it("makes a model's text storable: NUL dropped, an unpaired surrogate replaced", () => {
    expect(normaliseFacts([{ content: "The user\u0000 likes \ud800tea" }])).toEqual([
      { content: "The user likes \ufffdtea", memory_type: "preference", importance: 0.8 },
    ]);
  });
});

describe("createLlmProvider", () => {
  const config = (over: Partial<Config>): Config => ({
    DATABASE_URL: "postgres://x",
    JWT_SECRET: "x".repeat(32),
    AUTH_MESSAGE_PREFIX: "service-auth",
    EMBEDDER: "local",
    ...over,
  });

  it("picks the configured provider, rules by default", () => {
    expect(createLlmProvider(config({}), {}).name).toBe("rules-v1");
    expect(createLlmProvider(config({ LLM_PROVIDER: "rules" }), {}).name).toBe("rules-v1");
    expect(
      createLlmProvider(
        config({ LLM_PROVIDER: "openai", LLM_API_URL: "https://api.example/v1" }),
        {},
      ).name,
    ).toBe("openai:gpt-4o-mini");
    expect(
      createLlmProvider(
        config({ LLM_PROVIDER: "openai", LLM_API_URL: "https://x/v1", LLM_MODEL: "m" }),
        {},
      ).name,
    ).toBe("openai:m");
    const ai = { run: async () => ({}) } as unknown as Ai;
    expect(createLlmProvider(config({ LLM_PROVIDER: "workers-ai" }), { AI: ai }).name).toBe(
      `workers-ai:${WORKERS_AI_LLM_MODEL}`,
    );
  });

  it("explains a missing URL or AI binding", () => {
    const noUrl = () => createLlmProvider(config({ LLM_PROVIDER: "openai" }), {});
    expect(noUrl).toThrow(ApiError);
    expect(noUrl).toThrow(/LLM_API_URL/);
    expect(() => createLlmProvider(config({ LLM_PROVIDER: "workers-ai" }), {})).toThrow(
      /AI binding/,
    );
  });
});
