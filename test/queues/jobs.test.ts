/**
 * The jobs queue consumer: success, retry with exponential backoff after a provider error
 * (the reason kept on the job) and success on a later delivery, a retried job storing nothing
 * twice (a crash after part of the facts, a crash before the result was recorded, a duplicate
 * delivery), non-retryable failures and malformed messages.
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { domainContext } from "../../worker/context";
import { scopeOf } from "../../worker/ingest/extract";
import { jobFactStore } from "../../worker/jobs/facts";
import { BACKOFF_BASE_SECONDS, backoffSeconds } from "../../worker/jobs/retry";
import type { Json } from "../helpers";
import {
  DEAD_LETTERS,
  db,
  deliver,
  fakeLlm,
  opened,
  owner,
  QUEUE,
  recordedFacts,
  rules,
  TEXT,
} from "./fixtures";

afterAll(() => opened.close());

describe("jobs queue consumer", () => {
  it("runs the job, acks the message, and records the synchronous body", async () => {
    const o = await owner();
    const job = await o.newJob("ingest", { text: TEXT, namespace: "life" });
    const { ids, result } = await deliver(QUEUE, [job.message]);
    expect(result.outcome).toBe("ok");
    expect(result.explicitAcks).toEqual(ids);
    expect(result.retryMessages).toEqual([]);
    expect(result.retryBatch.retry).toBe(false);

    const view = await o.job(job.id);
    expect(view).toMatchObject({ status: "succeeded", attempts: 1, error: null });
    const expected = await rules.extractFacts([{ role: "user", content: TEXT }]);
    expect(view.result).toMatchObject({
      facts_extracted: expected.facts.length,
      facts_stored: expected.facts.length,
      facts_deduplicated: 0,
      memories_created: expected.facts.length,
      relations_created: 0,
      tokens_used: expected.tokens,
    });
    expect(await o.wallet.memoryCount()).toBe(expected.facts.length);
    expect(await recordedFacts(job.id)).toBe(expected.facts.length);
  });

  it("retries a provider error with exponential backoff, keeps the reason, then succeeds", async () => {
    const o = await owner();
    const job = await o.newJob("extract", {
      messages: [
        { role: "user", content: "Our office moved to Berlin. The team has twelve people." },
      ],
    });
    const failing = fakeLlm("fail-500");

    const first = await deliver(QUEUE, [job.message], { env: failing, attempts: 1 });
    expect(first.result.explicitAcks).toEqual([]);
    expect(first.retried).toEqual([{ msgId: first.ids[0], delaySeconds: BACKOFF_BASE_SECONDS }]);
    let view = await o.job(job.id);
    expect(view).toMatchObject({ status: "queued", attempts: 1, result: null });
    expect(view.error.code).toBe("BAD_GATEWAY");
    expect(view.error.message).toContain("HTTP 500");
    expect(await o.wallet.memoryCount()).toBe(0);

    // The delay doubles with each delivery.
    const third = await deliver(QUEUE, [job.message], { env: failing, attempts: 3 });
    expect(third.retried).toEqual([
      { msgId: third.ids[0], delaySeconds: 4 * BACKOFF_BASE_SECONDS },
    ]);

    // The provider recovers: the next delivery succeeds against the fake's good answers.
    const fourth = await deliver(QUEUE, [job.message], { env: fakeLlm("good"), attempts: 4 });
    expect(fourth.result.explicitAcks).toEqual(fourth.ids);
    expect(fourth.result.retryMessages).toEqual([]);
    view = await o.job(job.id);
    expect(view).toMatchObject({ status: "succeeded", attempts: 3, error: null });
    expect(view.result).toMatchObject({ facts_extracted: 2, facts_stored: 2 });
    const list = await o.wallet.get("/v1/memories?limit=10");
    expect(list.body.memories.map((m: Json) => m.content).sort()).toEqual([
      "Our office moved to Berlin",
      "The team has twelve people",
    ]);
  });

  it("backoff: 5 s doubling per delivery, capped at 10 minutes", () => {
    expect([1, 2, 3, 4, 5, 6].map(backoffSeconds)).toEqual([5, 10, 20, 40, 80, 160]);
    expect(backoffSeconds(8)).toBe(600);
    expect(backoffSeconds(50)).toBe(600);
  });

  it("a retry after a crash part-way stores none of the facts already stored", async () => {
    const o = await owner();
    const input = { text: TEXT, namespace: "life" };
    const job = await o.newJob("ingest", input);
    const { facts } = await rules.extractFacts([{ role: "user", content: TEXT }]);
    expect(facts.length).toBe(4);
    // What an attempt that crashed after storing the first two facts left behind.
    const ctx = domainContext(opened.services, { userId: o.userId, wallet: o.wallet.address });
    const partial = await jobFactStore(job.id)(ctx, facts.slice(0, 2), scopeOf(input));
    expect(partial.items.every((i) => !i.deduplicated)).toBe(true);
    expect(await o.wallet.memoryCount()).toBe(2);

    const { ids, result } = await deliver(QUEUE, [job.message], { attempts: 2 });
    expect(result.explicitAcks).toEqual(ids);
    const view = await o.job(job.id);
    expect(view.status).toBe("succeeded");
    // The two earlier facts count as stored by this job (not as duplicates of themselves).
    expect(view.result).toMatchObject({ facts_stored: 4, facts_deduplicated: 0 });
    expect(view.result.memory_ids.slice(0, 2)).toEqual(partial.items.map((i) => i.id));
    expect(new Set(view.result.memory_ids).size).toBe(4);
    expect(await o.wallet.memoryCount()).toBe(4);
    expect(await recordedFacts(job.id)).toBe(4);
  });

  it("a retry after a crash before the result was recorded stores nothing and answers the same", async () => {
    const o = await owner();
    const job = await o.newJob("extract", {
      messages: [{ role: "user", content: TEXT }],
      namespace: "life",
    });
    await deliver(QUEUE, [job.message]);
    const before = await o.job(job.id);
    expect(before.status).toBe("succeeded");
    // As if the attempt had died after storing, before its result was written.
    await db.execute(
      sql`UPDATE jobs SET status = 'running', result = NULL, finished_at = NULL WHERE id = ${job.id}`,
    );

    const again = await deliver(QUEUE, [job.message], { attempts: 2 });
    expect(again.result.explicitAcks).toEqual(again.ids);
    const after = await o.job(job.id);
    expect(after.status).toBe("succeeded");
    expect(after.attempts).toBe(2);
    // Embedding tokens only count the facts this attempt stored: none.
    expect({ ...after.result, tokens_used: 0 }).toEqual({ ...before.result, tokens_used: 0 });
    expect(after.result.facts_stored).toBe(4);
    expect(await o.wallet.memoryCount()).toBe(4);
  });

  it("a duplicate delivery of a finished job is acked and changes nothing", async () => {
    const o = await owner();
    const job = await o.newJob("consolidate", { mode: "llm" });
    await o.wallet.store("Ana prefers green tea in the morning and coffee after lunch");
    await o.wallet.store("Ana prefers green tea in the mornings and coffee after lunch breaks");
    await deliver(QUEUE, [job.message]);
    const done = await o.job(job.id);
    expect(done.result).toMatchObject({ clusters_found: 1, memories_created: 1 });
    expect(await o.wallet.memoryCount()).toBe(3);

    const again = await deliver(QUEUE, [job.message], { attempts: 2 });
    expect(again.result.explicitAcks).toEqual(again.ids);
    expect(again.result.retryMessages).toEqual([]);
    expect(await o.job(job.id)).toEqual(done);
    expect(await o.wallet.memoryCount()).toBe(3);
  });

  it("fails a job at once, without retry, when its input does not validate", async () => {
    const o = await owner();
    const job = await o.newJob("ingest", { text: "" });
    const { ids, result } = await deliver(QUEUE, [job.message]);
    expect(result.explicitAcks).toEqual(ids);
    expect(result.retryMessages).toEqual([]);
    const view = await o.job(job.id);
    expect(view).toMatchObject({ status: "failed", attempts: 1, result: null });
    expect(view.error.code).toBe("VALIDATION_ERROR");
    expect(view.finished_at).not.toBeNull();
  });

  it("acks malformed messages and messages naming no job of theirs, and changes nothing", async () => {
    const o = await owner();
    const other = await owner();
    const job = await o.newJob("ingest", { text: TEXT });
    const bodies: unknown[] = [
      "not a job",
      {},
      { job_id: "nope", user_id: o.userId, kind: "ingest" },
      { ...job.message, kind: "teleport" },
      { ...job.message, user_id: other.userId },
      { ...job.message, kind: "extract" },
      { ...job.message, job_id: crypto.randomUUID() },
    ];
    for (const queue of [QUEUE, DEAD_LETTERS]) {
      const { ids, result } = await deliver(queue, bodies);
      expect(result.explicitAcks).toEqual(ids);
      expect(result.retryMessages).toEqual([]);
    }
    expect(await o.job(job.id)).toMatchObject({ status: "queued", attempts: 0, error: null });
    expect(await o.wallet.memoryCount()).toBe(0);
  });
});
