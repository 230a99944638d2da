/**
 * The model-backed providers' update judgement (worker/llm/judge.ts): one call for every pair
 * (20 a call), the answer read defensively, a yes only at confidence ≥ 0.7, the rules'
 * refusals for another person, another time or a past period kept whatever the model says,
 * and the rules' verdicts whenever the model fails or answers badly. The OpenAI-compatible
 * provider against the fake server (test/fake-openai-server.ts, its judge-* modes), Workers
 * AI against a fake binding.
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage, LlmProvider } from "../../worker/language-model";
import { JUDGE_CHUNK, JUDGE_MIN_CONFIDENCE } from "../../worker/llm/judge";
import { OpenAiChatProvider, type OpenAiChatProviderOptions } from "../../worker/llm/openai";
import {
  parseJudgeAnswers,
  UPDATE_JUDGE_JSON_SCHEMA,
  UPDATE_JUDGE_PROMPT,
} from "../../worker/llm/prompts";
import { RulesProvider } from "../../worker/llm/rules";
import { WorkersAiProvider } from "../../worker/llm/workers-ai";
import { rulesJudge, type UpdatePair } from "../../worker/memories/updates/plan";
import { captureConsole } from "../log-capture";
import { callsOf, fakeAi, fakeOpenAiUrl, lastRequest } from "../providers";

const pair = (previous: string, next: string, correction = false): UpdatePair => ({
  next,
  previous: { content: previous, similarity: 0.7 },
  correction,
});

/** The rules say yes (residence, employer). */
const MOVED = pair("I live in Boston.", "We moved to Denver last month.");
const JOB = pair("I work at Acme.", "I work at Globex now.");
/** The rules refuse, and no model may override them. */
const SISTER = pair("My sister lives in Boston.", "I live in Denver.");
const PAST = pair("In 2019 I worked at Acme.", "I work at Globex now.");
/** The rules refuse, but only because they cannot tell: a model may decide. */
const DEVICE = pair("My laptop is a ThinkPad.", "My tablet is an iPad.");

const unique = (mode: string) => `${mode}:${crypto.randomUUID()}`;

describe("update judgement: OpenAI-compatible provider (fake server)", () => {
  const make = (model: string, options: Partial<OpenAiChatProviderOptions> = {}) =>
    new OpenAiChatProvider({ baseUrl: fakeOpenAiUrl(), model, backoffBaseMs: 5, ...options });

  it("asks once for every pair, in JSON mode, and records the model as the detector", async () => {
    const model = unique("good");
    const { verdicts, tokens } = await make(model).judgeUpdates([MOVED, DEVICE, JOB]);
    expect(await callsOf(model)).toEqual({ embeddings: 0, chat: 1 });
    const { body } = await lastRequest(model);
    expect(body).toMatchObject({ temperature: 0, response_format: { type: "json_object" } });
    const messages = body.messages as ChatMessage[];
    expect(messages[0]).toEqual({ role: "system", content: UPDATE_JUDGE_PROMPT });
    expect(JSON.parse(messages[1]?.content ?? "")).toEqual({
      pairs: [
        { pair: 1, older: "I live in Boston.", newer: "We moved to Denver last month." },
        { pair: 2, older: "My laptop is a ThinkPad.", newer: "My tablet is an iPad." },
        { pair: 3, older: "I work at Acme.", newer: "I work at Globex now." },
      ],
    });
    // The fake answers as the rules would, with confidence 0.9.
    const rule = `model:${model}`;
    expect(verdicts).toEqual([
      { replaces: true, score: 0.9, rule, detectedBy: "openai" },
      { replaces: false, score: 0.1, rule, detectedBy: "openai" },
      { replaces: true, score: 0.9, rule, detectedBy: "openai" },
    ]);
    // The provider's reported usage (the fake: one token per 4 characters).
    expect(tokens).toBeGreaterThan(0);
  });

  it("keeps the rules' refusals for another person and a past period, even against a yes", async () => {
    const model = unique("judge-yes");
    const { verdicts } = await make(model).judgeUpdates([SISTER, DEVICE, PAST]);
    expect(verdicts[0]).toEqual({ replaces: false, score: 0, rule: "other-person" });
    expect(verdicts[1]).toMatchObject({ replaces: true, score: 0.95, detectedBy: "openai" });
    expect(verdicts[2]).toEqual({ replaces: false, score: 0, rule: "past-scoped" });
    // Only the pair the rules left open was sent.
    const { body } = await lastRequest(model);
    const sent = JSON.parse((body.messages as ChatMessage[])[1]?.content ?? "");
    expect(sent.pairs).toEqual([
      { pair: 1, older: "My laptop is a ThinkPad.", newer: "My tablet is an iPad." },
    ]);
  });

  it("makes no call when the rules refuse every pair", async () => {
    const model = unique("judge-yes");
    const { verdicts, tokens } = await make(model).judgeUpdates([SISTER, PAST]);
    expect(verdicts.map((v) => v.rule)).toEqual(["other-person", "past-scoped"]);
    expect(tokens).toBe(0);
    expect((await callsOf(model)).chat).toBe(0);
  });

  it(`counts a yes only at confidence ${JUDGE_MIN_CONFIDENCE} or more, and a no even where the rules say yes`, async () => {
    const unsure = await make(unique("judge-unsure")).judgeUpdates([MOVED]);
    expect(unsure.verdicts[0]).toMatchObject({ replaces: false, score: 0.5, detectedBy: "openai" });
    const no = await make(unique("judge-no")).judgeUpdates([MOVED, JOB]);
    expect(no.verdicts.map((v) => v.replaces)).toEqual([false, false]);
    expect(no.verdicts[0]).toMatchObject({ score: 0.05, detectedBy: "openai" });
  });

  it("sends 20 pairs a call", async () => {
    const model = unique("judge-yes");
    const pairs = Array.from({ length: 2 * JUDGE_CHUNK + 5 }, (_, i) =>
      pair(`My locker number is ${i}.`, `My locker number is ${i + 100} now.`),
    );
    const { verdicts } = await make(model).judgeUpdates(pairs);
    expect((await callsOf(model)).chat).toBe(3);
    expect(verdicts).toHaveLength(pairs.length);
    expect(verdicts.every((v) => v.replaces && v.detectedBy === "openai")).toBe(true);
  });

  it.each([
    ["malformed", {}],
    ["judge-malformed", {}],
    ["wrong-shape", {}],
    ["fail-500", {}],
    ["slow", { timeoutMs: 200 }],
  ])("falls back to the rules when the model's answer is unusable (%s)", async (mode, options) => {
    const logs = captureConsole();
    const pairs = [MOVED, DEVICE, SISTER];
    const { verdicts } = await make(unique(mode), options).judgeUpdates(pairs);
    expect(verdicts).toEqual(await rulesJudge(pairs));
    expect(logs().some((c) => c.method === "error")).toBe(true);
  });

  it("tries a failing endpoint twice, not three times: the rules are a good answer", async () => {
    captureConsole();
    const model = unique("fail-500");
    await make(model).judgeUpdates([MOVED]);
    expect((await callsOf(model)).chat).toBe(2);
  });

  it("reads a sloppy answer, and leaves the pairs it cannot read to the rules", async () => {
    const content = [
      "Sure, here you go:",
      "```json",
      JSON.stringify({
        answers: [
          { pair: "3", replaces: "yes", confidence: "85" },
          { pair: 1, replaces: false, confidence: 0.8 },
          { pair: 9, replaces: true, confidence: 0.9 },
          { pair: 2, replaces: "maybe", confidence: 0.9 },
          { pair: 4, replaces: true, confidence: 0.9 },
          { pair: 4, replaces: false, confidence: 0.9 },
        ],
      }),
      "```",
    ].join("\n");
    const fetchImpl: typeof fetch = async () =>
      Response.json({ choices: [{ message: { content } }], usage: { total_tokens: 42 } });
    const provider = make("sloppy", { fetch: fetchImpl });
    const pairs = [MOVED, DEVICE, JOB, pair("I live in Rome.", "I live in Milan now.")];
    const { verdicts, tokens } = await provider.judgeUpdates(pairs);
    const rules = await rulesJudge(pairs);
    expect(tokens).toBe(42);
    expect(verdicts).toEqual([
      { replaces: false, score: 0.2, rule: "model:sloppy", detectedBy: "openai" },
      rules[1],
      { replaces: true, score: 0.85, rule: "model:sloppy", detectedBy: "openai" },
      rules[3],
    ]);
  });
});

describe("parseJudgeAnswers", () => {
  it("numbers unnumbered answers by their order, only when every pair is answered", () => {
    const bare = [
      { replaces: true, confidence: 0.9 },
      { replaces: false, confidence: 0.9 },
    ];
    const parsed = parseJudgeAnswers(JSON.stringify(bare), 2);
    expect(parsed).toEqual({
      ok: true,
      value: new Map([
        [1, { replaces: true, confidence: 0.9 }],
        [2, { replaces: false, confidence: 0.9 }],
      ]),
    });
    expect(parseJudgeAnswers({ answers: bare }, 3).ok).toBe(false);
  });

  it.each([
    ["not JSON", "yes"],
    ["no answers", { verdicts: [] }],
    ["an empty list", { answers: [] }],
    ["no confidence", { answers: [{ pair: 1, replaces: true }] }],
    ["a confidence out of range", { answers: [{ pair: 1, replaces: true, confidence: 140 }] }],
    ["null", null],
  ])("refuses %s", (_what, output) => {
    expect(parseJudgeAnswers(output, 1).ok).toBe(false);
  });
});

describe("update judgement: Workers AI provider (fake binding)", () => {
  it("asks in JSON-schema mode and records workers-ai as the detector", async () => {
    const { ai, calls } = fakeAi({
      response: {
        answers: [
          { pair: 1, replaces: true, confidence: 0.92 },
          { pair: 2, replaces: true, confidence: 0.6 },
        ],
      },
      usage: { total_tokens: 31 },
    });
    const provider = new WorkersAiProvider(ai, { backoffBaseMs: 1 });
    const { verdicts, tokens } = await provider.judgeUpdates([MOVED, SISTER, DEVICE]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.input.response_format).toEqual({
      type: "json_schema",
      json_schema: UPDATE_JUDGE_JSON_SCHEMA,
    });
    expect(calls[0]?.input.messages[0]?.content).toBe(UPDATE_JUDGE_PROMPT);
    const rule = "model:@cf/meta/llama-3.1-8b-instruct";
    expect(verdicts).toEqual([
      { replaces: true, score: 0.92, rule, detectedBy: "workers-ai" },
      { replaces: false, score: 0, rule: "other-person" },
      { replaces: false, score: 0.6, rule, detectedBy: "workers-ai" },
    ]);
    expect(tokens).toBe(31);
  });

  it("falls back to the rules after two failed attempts", async () => {
    captureConsole();
    const { ai, calls } = fakeAi(new Error("upstream overloaded"));
    const provider = new WorkersAiProvider(ai, { backoffBaseMs: 1 });
    const pairs = [MOVED, DEVICE];
    const { verdicts, tokens } = await provider.judgeUpdates(pairs);
    expect(verdicts).toEqual(await rulesJudge(pairs));
    expect(tokens).toBe(0);
    expect(calls).toHaveLength(2);
  });
});

describe("update judgement: rules provider", () => {
  it("has none: the store's rules decide", () => {
    const rules: LlmProvider = new RulesProvider();
    expect(rules.judgeUpdates).toBeUndefined();
  });
});
