/** Background jobs of a Worker without a queue binding: the job runs in-process after the response. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../worker/env";
import { type Json, newWallet } from "../../helpers";
import { workerWith } from "../../worker-with";

describe("async jobs without a queue binding", () => {
  const noQueue: Env = { ...env, JOBS_QUEUE: undefined };

  it("runs the job in-process after the response, here against the OpenAI-compatible fake", async () => {
    const fake: Env = {
      ...noQueue,
      LLM_PROVIDER: "openai",
      LLM_API_URL: `${env.FAKE_OPENAI_URL}/v1`,
      LLM_MODEL: `good:${crypto.randomUUID()}`,
    };
    // The wallet talks to that Worker; the in-process job runs in waitUntil, after the response.
    const w = newWallet(workerWith(fake));
    const text = "Our office moved to Berlin. The team has twelve people.";
    const res = await w.post("/v1/ingest", { text, async: true });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.headers.get("location")).toBe(`/v1/jobs/${res.body.job_id}`);
    const job = (await w.get(`/v1/jobs/${res.body.job_id}`)).body;
    expect(job).toMatchObject({ status: "succeeded", attempts: 1, error: null });
    // The fake answers one fact per sentence, without the full stop.
    const list = await w.get("/v1/memories?limit=10");
    expect(list.body.memories.map((m: Json) => m.content).sort()).toEqual([
      "Our office moved to Berlin",
      "The team has twelve people",
    ]);
    expect(job.result.facts_stored).toBe(2);
  });

  it("fails the job at once on a provider error: there is nothing to retry it", async () => {
    const failing: Env = {
      ...noQueue,
      LLM_PROVIDER: "openai",
      LLM_API_URL: `${env.FAKE_OPENAI_URL}/v1`,
      LLM_MODEL: `fail-500:${crypto.randomUUID()}`,
    };
    const w = newWallet(workerWith(failing));
    const res = await w.post("/v1/ingest", { text: "I like tea.", async: true });
    expect(res.status).toBe(202);
    const job = (await w.get(`/v1/jobs/${res.body.job_id}`)).body;
    expect(job.status).toBe("failed");
    expect(job.error.code).toBe("BAD_GATEWAY");
    expect(job.error.message).toContain("HTTP 500");
    expect(job.result).toBeNull();
    expect((await w.get("/v1/memories/count")).body.count).toBe(0);
  });
});
