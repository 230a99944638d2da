/**
 * The OpenAI-compatible chat provider against the fake server (test/fake-openai-server.ts:
 * good, fenced, malformed once and always, wrong shape, 429, 500, slow).
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../worker/language-model";
import { countTokens } from "../../worker/lib/tokens";
import { OpenAiChatProvider, type OpenAiChatProviderOptions } from "../../worker/llm/openai";
import { EXTRACTION_PROMPT } from "../../worker/llm/prompts";
import { apiError, fakeOpenAiUrl, lastRequest } from "../providers";

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
  const baseUrl = fakeOpenAiUrl();
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
