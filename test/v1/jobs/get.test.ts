/**
 * Background jobs over HTTP: `async: true` on ingest, extract and consolidate answers 202 with
 * a job, the suite's real jobs queue (wrangler.toml, simulated by the pool) delivers it to the
 * Worker's queue() consumer, and GET /v1/jobs/:id then shows the synchronous call's body.
 * Also: per-wallet access, validation before anything is queued, metering, and the Worker
 * without a queue binding (the job runs in-process after the response). The consumers' ack,
 * retry and dead-letter decisions are tested in test/queues/.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connectDb } from "../../../worker/db/client";
import type { Env } from "../../../worker/env";
import worker from "../../../worker/index";
import { RulesProvider } from "../../../worker/llm/rules";
import {
  expectError,
  type Json,
  MISSING_ID,
  newWallet,
  request,
  signAuth,
  type Wallet,
} from "../../helpers";

const rules = new RulesProvider();
const bindings: Env = { ...env };

const JOB_KEYS = [
  "attempts",
  "created_at",
  "error",
  "finished_at",
  "id",
  "job_id",
  "kind",
  "result",
  "started_at",
  "status",
  "updated_at",
];

/** Polls GET /v1/jobs/:id until the job has finished (the local queue delivers within ~1 s). */
async function finished(w: Wallet, id: string): Promise<Json> {
  for (let poll = 0; poll < 150; poll++) {
    const res = await w.get(`/v1/jobs/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.status === "succeeded" || res.body.status === "failed") return res.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} did not finish`);
}

/** POSTs with async: true and checks the 202; returns the job id. */
async function submit(w: Wallet, path: string, body: Record<string, unknown>, kind: string) {
  const res = await w.post(path, { ...body, async: true });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(Object.keys(res.body).sort()).toEqual([...JOB_KEYS, "status_url"].sort());
  expect(res.body).toMatchObject({
    kind,
    status: "queued",
    result: null,
    error: null,
    attempts: 0,
    started_at: null,
    finished_at: null,
  });
  expect(res.body.job_id).toBe(res.body.id);
  expect(res.body.status_url).toBe(`/v1/jobs/${res.body.id}`);
  expect(res.headers.get("location")).toBe(`/v1/jobs/${res.body.id}`);
  return res.body.id as string;
}

async function withDb<T>(fn: (db: ReturnType<typeof connectDb>["db"]) => Promise<T>) {
  const { db, close } = connectDb(bindings.DATABASE_URL ?? "", bindings.NEON_WS_PROXY || undefined);
  try {
    return await fn(db);
  } finally {
    await close();
  }
}

async function jobCount(w: Wallet): Promise<number> {
  return withDb(async (db) => {
    const r = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM jobs JOIN users ON users.id = jobs.user_id
      WHERE users.wallet = ${w.address.toLowerCase()}`);
    return Number(r.rows[0]?.n ?? -1);
  });
}

const CONVERSATION = [
  { role: "user", content: "I run a bakery in Porto. We open at 7am on weekdays." },
  { role: "assistant", content: "Great! Anything else?" },
  { role: "user", content: "My best seller is the pastel de nata." },
];

describe("async jobs through the queue", () => {
  it("has the jobs queue bound (so these jobs go through the queue, not the in-process fallback)", () => {
    expect(bindings.JOBS_QUEUE).toBeDefined();
    expect(typeof bindings.JOBS_QUEUE?.send).toBe("function");
  });

  it("ingest: 202, then the job succeeds with the synchronous body and the memories are stored", async () => {
    const w = newWallet();
    const body = { messages: CONVERSATION, namespace: "shop", auto_relate: true };
    const id = await submit(w, "/v1/ingest", body, "ingest");
    const job = await finished(w, id);
    expect(Object.keys(job).sort()).toEqual(JOB_KEYS);
    expect(job).toMatchObject({ id, job_id: id, kind: "ingest", status: "succeeded", error: null });
    expect(job.attempts).toBe(1);
    expect(job.started_at).not.toBeNull();
    expect(job.finished_at).not.toBeNull();

    // The same call made synchronously by another wallet answers the same body but its ids.
    const sync = await newWallet().post("/v1/ingest", body);
    expect(sync.status).toBe(201);
    expect(Object.keys(job.result).sort()).toEqual(Object.keys(sync.body).sort());
    expect({ ...job.result, memory_ids: [] }).toEqual({ ...sync.body, memory_ids: [] });
    expect(job.result.facts_stored).toBe(3);

    const expected = await rules.extractFacts(CONVERSATION);
    const list = await w.get("/v1/memories?namespace=shop&limit=10");
    expect(list.body.memories.map((m: Json) => m.id).sort()).toEqual(
      [...job.result.memory_ids].sort(),
    );
    expect(list.body.memories.map((m: Json) => m.content).sort()).toEqual(
      expected.facts.map((f) => f.content).sort(),
    );
  });

  it("extract: 202, then the synchronous body, deduplicating against existing memories", async () => {
    const w = newWallet();
    const { facts } = await rules.extractFacts(CONVERSATION);
    expect(facts).toHaveLength(3);
    const first = facts[0]?.content ?? "";
    const existing = await w.store(first);
    const body = { messages: CONVERSATION, session_id: "s-1" };
    const id = await submit(w, "/v1/memories/extract", body, "extract");
    const job = await finished(w, id);
    expect(job.status).toBe("succeeded");

    const other = newWallet();
    await other.store(first);
    const sync = await other.post("/v1/memories/extract", body);
    expect(sync.status).toBe(201);
    expect({ ...job.result, memory_ids: [] }).toEqual({ ...sync.body, memory_ids: [] });
    expect(job.result.facts_deduplicated).toBe(1);
    expect(job.result.memory_ids[0]).toBe(existing);
    expect((await w.get("/v1/memories/count")).body.count).toBe(3);
    const stored = await w.get(`/v1/memories/${job.result.memory_ids[2]}`);
    expect(stored.body.session_id).toBe("s-1");
  });

  it("llm consolidation: 202, then the clusters merged into synthesised memories", async () => {
    const w = newWallet();
    const a = await w.store("Ana prefers green tea in the morning and coffee after lunch");
    const b = await w.store("Ana prefers green tea in the mornings and coffee after lunch breaks");
    await w.store("The office printer on floor three is broken again");
    const id = await submit(w, "/v1/memories/consolidate", { mode: "llm" }, "consolidate");
    const job = await finished(w, id);
    expect(job.status).toBe("succeeded");
    expect(Object.keys(job.result).sort()).toEqual([
      "clusters",
      "clusters_found",
      "memories_created",
      "memories_merged",
      "merged_count",
    ]);
    expect(job.result).toMatchObject({
      clusters_found: 1,
      memories_created: 1,
      memories_merged: 0,
    });
    const [cluster] = job.result.clusters;
    expect([...cluster.memory_ids].sort()).toEqual([a, b].sort());
    const created = await w.get(`/v1/memories/${cluster.merged_into}`);
    expect(created.status).toBe(200);
    expect((await w.get("/v1/memories/count")).body.count).toBe(4);
  });

  it("without async, or with async: false, the calls stay synchronous", async () => {
    const w = newWallet();
    const text = "I live in Lisbon. My sister is called Marta.";
    const ingest = await w.post("/v1/ingest", { text, async: false });
    expect(ingest.status).toBe(201);
    expect(ingest.body.facts_stored).toBe(2);
    const consolidate = await w.post("/v1/memories/consolidate", { dry_run: true });
    expect(consolidate.status).toBe(200);
    expect(consolidate.body.clusters_found).toBe(0);
    expect(await jobCount(w)).toBe(0);
  });

  it("validates before queueing: invalid input is a 422 at once and no job is created", async () => {
    const w = newWallet();
    const bad: Array<[string, unknown]> = [
      ["/v1/ingest", { async: true }],
      ["/v1/ingest", { async: true, text: "   " }],
      ["/v1/ingest", { async: "yes", text: "I like tea." }],
      ["/v1/memories/extract", { async: true, messages: [] }],
      ["/v1/memories/extract", { async: true, messages: [{ role: "user", content: 3 }] }],
      ["/v1/memories/consolidate", { async: true, min_similarity: 2 }],
      ["/v1/memories/consolidate", { async: 1 }],
    ];
    for (const [path, body] of bad) {
      expectError(await w.post(path, body), 422, "VALIDATION_ERROR");
    }
    const neither = expectError(
      await w.post("/v1/ingest", { async: true }),
      422,
      "VALIDATION_ERROR",
    );
    expect(neither.details.issues).toEqual([
      { path: "messages", message: "provide messages or text" },
    ]);
    const flag = expectError(
      await w.post("/v1/ingest", { async: "yes", text: "I like tea." }),
      422,
      "VALIDATION_ERROR",
    );
    expect(flag.details.issues.map((i: Json) => i.path)).toEqual(["async"]);
    expect(await jobCount(w)).toBe(0);
  });

  it("is priced like the synchronous call; polling is free", async () => {
    const w = newWallet();
    const used = async () => (await w.get("/v1/free-tier/status")).body.free_tier_used as number;
    expect(await used()).toBe(0);
    const id = await submit(w, "/v1/ingest", { text: "I work at Globex." }, "ingest");
    expect(await used()).toBe(1);
    await finished(w, id);
    await w.get(`/v1/jobs/${id}`);
    expect(await used()).toBe(1);
    // A refused async call (422) is not counted either.
    await w.post("/v1/ingest", { async: true });
    expect(await used()).toBe(1);
  });
});

describe("GET /v1/jobs/:id", () => {
  it("is the caller's only: another wallet's job and a missing one are 404, a bad id 422", async () => {
    const owner = newWallet();
    const id = await submit(owner, "/v1/ingest", { text: "I prefer window seats." }, "ingest");
    const other = newWallet();
    const res = expectError(await other.get(`/v1/jobs/${id}`), 404, "NOT_FOUND");
    expect(res.message).toBe("Job not found");
    expectError(await owner.get(`/v1/jobs/${MISSING_ID}`), 404, "NOT_FOUND");
    const bad = expectError(await owner.get("/v1/jobs/not-a-uuid"), 422, "VALIDATION_ERROR");
    expect(bad.details.issues[0].path).toBe("id");
    // The same 422 as the memory routes give for a malformed id.
    expectError(await owner.get("/v1/memories/not-a-uuid"), 422, "VALIDATION_ERROR");
    expectError(await request("GET", `/v1/jobs/${id}`), 401, "UNAUTHORIZED");
    const expired = await signAuth(owner.account, Math.floor(Date.now() / 1000) - 1000);
    expectError(
      await request("GET", `/v1/jobs/${id}`, { headers: { "x-wallet-auth": expired } }),
      401,
      "UNAUTHORIZED",
    );
    // The owner still sees it, with an upper-case id too.
    expect((await finished(owner, id.toUpperCase())).id).toBe(id);
  });
});

describe("async jobs without a queue binding", () => {
  /** The suite's Worker with other bindings, as a fetch (the payment tests do the same). */
  async function call(workerEnv: Env, w: Wallet, path: string, body: unknown) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`http://memory.test${path}`, {
        method: "POST",
        headers: { "x-wallet-auth": await signAuth(w.account), "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      workerEnv,
      ctx,
    );
    // The in-process job runs in waitUntil, after the response.
    const json = (await res.json()) as Json;
    await waitOnExecutionContext(ctx);
    return { status: res.status, body: json, location: res.headers.get("location") };
  }

  const noQueue: Env = { ...bindings, JOBS_QUEUE: undefined };

  it("runs the job in-process after the response, here against the OpenAI-compatible fake", async () => {
    const w = newWallet();
    const fake: Env = {
      ...noQueue,
      LLM_PROVIDER: "openai",
      LLM_API_URL: `${env.FAKE_OPENAI_URL}/v1`,
      LLM_MODEL: `good:${crypto.randomUUID()}`,
    };
    const text = "Our office moved to Berlin. The team has twelve people.";
    const res = await call(fake, w, "/v1/ingest", { text, async: true });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.location).toBe(`/v1/jobs/${res.body.job_id}`);
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
    const w = newWallet();
    const failing: Env = {
      ...noQueue,
      LLM_PROVIDER: "openai",
      LLM_API_URL: `${env.FAKE_OPENAI_URL}/v1`,
      LLM_MODEL: `fail-500:${crypto.randomUUID()}`,
    };
    const res = await call(failing, w, "/v1/ingest", { text: "I like tea.", async: true });
    expect(res.status).toBe(202);
    const job = (await w.get(`/v1/jobs/${res.body.job_id}`)).body;
    expect(job.status).toBe("failed");
    expect(job.error.code).toBe("BAD_GATEWAY");
    expect(job.error.message).toContain("HTTP 500");
    expect(job.result).toBeNull();
    expect((await w.get("/v1/memories/count")).body.count).toBe(0);
  });
});
