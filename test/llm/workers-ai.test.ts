/** The Workers AI chat provider against a fake binding: JSON-schema mode, retries, failures. */
import { describe, expect, it } from "vitest";
import { FACTS_JSON_SCHEMA, SYNTHESIS_JSON_SCHEMA } from "../../worker/llm/prompts";
import {
  type AiTextRunner,
  WORKERS_AI_LLM_MODEL,
  WorkersAiProvider,
} from "../../worker/llm/workers-ai";
import { apiError, fakeAi } from "../providers";

describe("WorkersAiProvider (fake binding)", () => {
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
