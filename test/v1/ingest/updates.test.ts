/**
 * Knowledge updates at ingest and extract (issue #45): a fact that gives a new value for the
 * same thing as a current memory replaces it. With a model-backed provider the model decides
 * (here the OpenAI-compatible fake, test/fake-openai-server.ts: by default it answers as the
 * store's rules would, its judge-* modes otherwise), the rules' refusals for another person or
 * time stand, and a failing model leaves the decision to the rules; with the `rules` provider
 * the store's rules decide. Embeddings are the production model's (bge-small-en-v1.5), so that
 * a fact and its replacement are each other's neighbours.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../../worker/env";
import { BGE_MODEL, bgeEndpoint, bgeWallet } from "../../bge-worker";
import { expectStatus, type Json, newWallet, sorted, type Wallet } from "../../helpers";
import { captureConsole } from "../../log-capture";
import { callsOf, fakeOpenAiUrl } from "../../providers";
import { workerWith } from "../../worker-with";
import { ingest } from "./fixtures";

beforeAll(() => {
  bgeEndpoint();
});

const OLD = "I live in a studio in Glasgow.";
/** The fake extracts one fact per sentence, without its full stop. */
const NEW = "We moved into a house in Edinburgh last week";

/**
 * A wallet of a Worker that embeds with bge and asks the fake for facts and judgements under
 * a model name of the test's own (`mode:` and a UUID; the mode picks the fake's behaviour).
 */
function modelWallet(mode: string, over: Partial<Env> = {}) {
  const model = `${mode}:${crypto.randomUUID()}`;
  const bindings: Env = {
    ...env,
    EMBEDDER: "openai",
    EMBEDDING_API_URL: bgeEndpoint(),
    EMBEDDING_MODEL: BGE_MODEL,
    LLM_PROVIDER: "openai",
    LLM_API_URL: fakeOpenAiUrl(),
    LLM_MODEL: model,
    ...over,
  };
  return { model, w: newWallet(workerWith(bindings)) };
}

const supersedesOf = async (w: Wallet, id: string) =>
  (await w.relationsOf(id)).filter((r: Json) => r.relation_type === "supersedes");

/** The ids of the wallet's current memories (the default list). */
const current = async (w: Wallet) =>
  sorted((await w.getOk("/v1/memories?limit=50")).memories.map((m: Json) => m.id));

/**
 * Stores OLD, then ingests NEW: the new fact must replace the old one, and its relation say
 * that the store's rules found it (the residence rule).
 */
async function expectRulesReplace(w: Wallet) {
  const old = await w.storeNew(OLD);
  const [now] = (await ingest(w, { text: `${NEW}.` })).memory_ids as string[];
  const [relation] = await supersedesOf(w, now as string);
  expect(relation).toMatchObject({ source_id: now, target_id: old });
  expect(relation.metadata).toMatchObject({
    detected_by: "rules",
    rule: "same-attribute:residence",
  });
}

describe("knowledge updates at ingest (model-backed provider)", () => {
  it("the model's verdict replaces the older memory, and the relation says the model found it", async () => {
    const { model, w } = modelWallet("good");
    const old = await w.storeNew(OLD);
    const body = await ingest(w, { messages: [{ role: "user", content: `${NEW}.` }] });
    expect(body.facts_stored).toBe(1);
    const [now] = body.memory_ids as string[];
    const [relation] = await supersedesOf(w, now as string);
    expect(relation).toMatchObject({ source_id: now, target_id: old });
    expect(relation.metadata).toMatchObject({
      detected_by: "openai",
      rule: `model:${model}`,
      score: 0.9,
    });
    expect(relation.metadata.similarity).toBeGreaterThanOrEqual(0.5);
    expect((await w.getMemory(old)).superseded_by).toBe(now);
    expect(await current(w)).toEqual([now]);
    // One call to extract, one to judge; tokens_used counts both.
    expect((await callsOf(model)).chat).toBe(2);
    expect(body.tokens_used).toBeGreaterThan(0);
  });

  it("detect_updates: false stores the fact beside the older one, without asking", async () => {
    const { model, w } = modelWallet("judge-yes");
    const old = await w.storeNew(OLD);
    const body = await ingest(w, { text: `${NEW}.`, detect_updates: false });
    const [now] = body.memory_ids as string[];
    expect(await supersedesOf(w, now as string)).toEqual([]);
    expect(await current(w)).toEqual(sorted([old, now as string]));
    expect((await callsOf(model)).chat).toBe(1);
  });

  it("rejects a detect_updates that is not a boolean", async () => {
    const { w } = modelWallet("good");
    const res = await w.post("/v1/ingest", { text: `${NEW}.`, detect_updates: "no" });
    expect(res.status).toBe(422);
  });

  it("the model's no stands, even where the rules would replace", async () => {
    const { w } = modelWallet("judge-no");
    const old = await w.storeNew(OLD);
    const [now] = (await ingest(w, { text: `${NEW}.` })).memory_ids as string[];
    expect(await supersedesOf(w, now as string)).toEqual([]);
    expect(await current(w)).toEqual(sorted([old, now as string]));
  });

  it("a fact about another person is never a replacement, whatever the model says", async () => {
    const { w } = modelWallet("judge-yes");
    const sister = await w.storeNew("My sister lives in a studio in Glasgow.");
    const [now] = (await ingest(w, { text: "I moved into a house in Edinburgh last week." }))
      .memory_ids as string[];
    expect(await supersedesOf(w, now as string)).toEqual([]);
    expect(await current(w)).toEqual(sorted([sister, now as string]));
  });

  it.each(["judge-fail", "judge-malformed"])(
    "%s: ingest still succeeds, and the rules decide",
    async (mode) => {
      captureConsole();
      const { w } = modelWallet(mode);
      await expectRulesReplace(w);
    },
  );

  it("an async ingest carries detect_updates into its job", async () => {
    // Without a queue binding the job runs after the response, before workerWith answers.
    const { w } = modelWallet("good", { JOBS_QUEUE: undefined });
    const old = await w.storeNew(OLD);
    const off = expectStatus(
      await w.post("/v1/ingest", { text: `${NEW}.`, detect_updates: false, async: true }),
      202,
    );
    const offJob = (await w.get(`/v1/jobs/${off.job_id}`)).body;
    expect(offJob).toMatchObject({ status: "succeeded" });
    const [beside] = offJob.result.memory_ids as string[];
    expect(await supersedesOf(w, beside as string)).toEqual([]);

    const on = expectStatus(
      await w.post("/v1/ingest", { text: "I moved into a flat in Leith yesterday.", async: true }),
      202,
    );
    const onJob = (await w.get(`/v1/jobs/${on.job_id}`)).body;
    expect(onJob).toMatchObject({ status: "succeeded" });
    const [now] = onJob.result.memory_ids as string[];
    const targets = (await supersedesOf(w, now as string)).map((r: Json) => r.target_id);
    expect(targets.length).toBeGreaterThan(0);
    expect(sorted([old, beside as string])).toEqual(expect.arrayContaining(targets));
    for (const r of await supersedesOf(w, now as string)) {
      expect(r.metadata.detected_by).toBe("openai");
    }
  });
});

describe("knowledge updates at extract (model-backed provider)", () => {
  it("replaces the older memory, detected by the model; detect_updates: false does not", async () => {
    const { model, w } = modelWallet("good");
    const old = await w.storeNew(OLD);
    const res = expectStatus(
      await w.post("/v1/memories/extract", { messages: [{ role: "user", content: `${NEW}.` }] }),
      201,
    );
    const [now] = res.memory_ids as string[];
    const [relation] = await supersedesOf(w, now as string);
    expect(relation).toMatchObject({ source_id: now, target_id: old });
    expect(relation.metadata).toMatchObject({ detected_by: "openai", rule: `model:${model}` });

    const other = modelWallet("judge-yes");
    const kept = await other.w.storeNew(OLD);
    const off = expectStatus(
      await other.w.post("/v1/memories/extract", { text: `${NEW}.`, detect_updates: false }),
      201,
    );
    const [beside] = off.memory_ids as string[];
    expect(await supersedesOf(other.w, beside as string)).toEqual([]);
    expect(await current(other.w)).toEqual(sorted([kept, beside as string]));
  });
});

describe("knowledge updates at ingest (rules provider)", () => {
  it("the store's rules decide, and the relation says so", async () => {
    const w = bgeWallet();
    await expectRulesReplace(w);
  });

  it("detect_updates: false stores the fact beside the older one", async () => {
    const w = bgeWallet();
    const old = await w.storeNew(OLD);
    const [now] = (await ingest(w, { text: `${NEW}.`, detect_updates: false }))
      .memory_ids as string[];
    expect(await supersedesOf(w, now as string)).toEqual([]);
    expect(await current(w)).toEqual(sorted([old, now as string]));
  });
});
