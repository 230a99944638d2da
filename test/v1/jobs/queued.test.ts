/**
 * Background jobs over HTTP: `async: true` on ingest, extract and consolidate answers 202 with
 * a job, the suite's real jobs queue (wrangler.toml, simulated by the pool) delivers it to the
 * Worker's queue() consumer, and GET /v1/jobs/:id then shows the synchronous call's body.
 * Also: validation before anything is queued, and metering. The consumers' ack, retry and
 * dead-letter decisions are tested in test/queues/.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../worker/env";
import { RulesProvider } from "../../../worker/llm/rules";
import { expectError, type Json, newWallet } from "../../helpers";
import { CONVERSATION, finished, JOB_KEYS, jobCount, submit } from "./fixtures";

const rules = new RulesProvider();
const bindings: Env = { ...env };
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
      "dry_run",
      "memories_created",
      "memories_merged",
      "merged",
      "merged_count",
      "tokens_used",
    ]);
    expect(job.result).toMatchObject({
      clusters_found: 1,
      memories_created: 1,
      memories_merged: 0,
      merged: 0,
      dry_run: false,
    });
    expect(job.result.tokens_used).toBeGreaterThan(0);
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
