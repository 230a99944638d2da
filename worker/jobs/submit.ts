/**
 * Accepting a job: `async: true` on extract, ingest or consolidate. The input has already
 * been validated like the synchronous call's (a bad one is a 422 before anything is queued);
 * the job row is written, then a message naming it is sent to the jobs queue.
 *
 * Without a JOBS_QUEUE binding (a deployment that left the queue out), the job still runs:
 * in the same Worker invocation after the response (`waitUntil`), one attempt, no retries;
 * a failure marks it failed. If the queue refuses the message, the job is marked failed and
 * the request answers 503 SERVICE_UNAVAILABLE (the free call is given back, as for any error).
 */
import { z } from "zod";
import type { DomainContext } from "../context";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { logError } from "../lib/log";
import { openServices } from "../services";
import type { JobKind, JobMessage } from "./message";
import { processJob } from "./process";
import { insertJob, markFailed } from "./records";
import { type JobView, jobView } from "./view";

/** The request body's `async` flag, beside the endpoint's own fields. */
export function acceptingAsync<T extends z.ZodType>(schema: T) {
  return z.intersection(schema, z.object({ async: z.boolean().optional() }));
}

/** Where work may continue after the response (ExecutionContext.waitUntil). */
export type Background = (work: Promise<unknown>) => void;

export async function submitJob(
  ctx: DomainContext,
  env: Env,
  kind: JobKind,
  input: Record<string, unknown>,
  background: Background,
): Promise<JobView> {
  const row = await insertJob(ctx.db, ctx.userId, kind, input);
  const message: JobMessage = { job_id: row.id, user_id: ctx.userId, kind };
  if (!env.JOBS_QUEUE) {
    background(runInProcess(env, message));
    return jobView(row);
  }
  try {
    await env.JOBS_QUEUE.send(message, { contentType: "json" });
  } catch (err) {
    logError(`job ${row.id}: the jobs queue refused it`, err);
    const error = new ApiError(
      "SERVICE_UNAVAILABLE",
      "The job queue is unavailable; try again later or call without async",
    );
    await markFailed(ctx.db, { id: row.id }, { code: error.code, message: error.message });
    throw error;
  }
  return jobView(row);
}

/** One attempt of the job in this invocation, on services of its own (the request's close). */
async function runInProcess(env: Env, message: JobMessage): Promise<void> {
  const opened = openServices(env);
  try {
    await processJob(opened.services, { message, attempts: 1, canRetry: false });
  } finally {
    await opened.close();
  }
}
