/**
 * What the queue consumer tests share. Batches made with createMessageBatch go to the
 * Worker's queue() handler, and getQueueResult reports what it did with each message (acked,
 * or retried with which delay). Jobs are written straight to the database, so the suite's
 * real queue never sees them; the provider is chosen per call through the env given to
 * queue() (the OpenAI-compatible fake of the global setup, or the default rules provider).
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect, vi } from "vitest";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import type { JobKind, JobMessage } from "../../worker/jobs/message";
import { insertJob } from "../../worker/jobs/records";
import { RulesProvider } from "../../worker/llm/rules";
import { openServices } from "../../worker/services";
import { ensureUser } from "../../worker/users";
import { type Json, newWallet } from "../helpers";

/** The suite's services, opened once per test file: close them in afterAll. */
export const bindings: Env = { ...env };
export const QUEUE = "memory-jobs";
export const DEAD_LETTERS = "memory-jobs-dlq";
export const rules = new RulesProvider();

/** The env with the language model at the fake server, `mode` picking its behaviour. */
export const fakeLlm = (mode: string): Env => ({
  ...bindings,
  LLM_PROVIDER: "openai",
  LLM_API_URL: `${env.FAKE_OPENAI_URL}/v1`,
  LLM_MODEL: `${mode}:${crypto.randomUUID()}`,
});

export const opened = openServices(bindings);
export const db = opened.services.db;

/**
 * A wallet and its user row, with its jobs: `newJob` writes a queued job straight to the
 * database (returning its id and the message the queue would carry), `job` reads one through
 * GET /v1/jobs/:id as its owner.
 */
export async function owner() {
  const wallet = newWallet();
  const userId = await ensureUser(db, wallet.address);
  return {
    wallet,
    userId,
    async newJob(kind: JobKind, input: Record<string, unknown>) {
      const row = await insertJob(db, userId, kind, input);
      const message: JobMessage = { job_id: row.id, user_id: userId, kind };
      return { id: row.id, message };
    },
    job: (id: string): Promise<Json> => wallet.getOk(`/v1/jobs/${id}`),
  };
}

/** Delivers one batch to the Worker's queue() and returns what it did with each message. */
export async function deliver(
  queue: string,
  bodies: unknown[],
  opts: { attempts?: number; env?: Env } = {},
) {
  const messages = bodies.map((body) => ({
    id: crypto.randomUUID(),
    timestamp: new Date(),
    attempts: opts.attempts ?? 1,
    body,
  }));
  const batch = createMessageBatch(queue, messages);
  // The pool's getQueueResult reports which messages were retried but not their options:
  // record the delay each retry() asked for.
  const delays: Array<{ msgId: string; delaySeconds: number | undefined }> = [];
  for (const msg of batch.messages) {
    const retry = msg.retry.bind(msg);
    vi.spyOn(msg, "retry").mockImplementation((options) => {
      delays.push({ msgId: msg.id, delaySeconds: options?.delaySeconds });
      retry(options);
    });
  }
  const ctx = createExecutionContext();
  await worker.queue(batch, opts.env ?? bindings, ctx);
  const result = await getQueueResult(batch, ctx);
  expect(result.retryMessages.map((r: { msgId: string }) => r.msgId)).toEqual(
    delays.map((d) => d.msgId),
  );
  return { ids: messages.map((m) => m.id), result, retried: delays };
}

export async function recordedFacts(jobId: string): Promise<number> {
  const r = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM job_facts WHERE job_id = ${jobId}`,
  );
  return Number(r.rows[0]?.n);
}

export const TEXT =
  "I moved to Porto in 2021. My partner is called Rui. I prefer trains to planes. " +
  "Our dog Biscuit is three years old.";
