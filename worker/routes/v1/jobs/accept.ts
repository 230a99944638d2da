import { type AppContext, domain } from "../../../context";
import type { JobKind } from "../../../jobs/message";
import { type Background, submitJob } from "../../../jobs/submit";
import { jobPath } from "../../../jobs/view";
import { logError } from "../../../lib/log";

/** 202 for an `async: true` call: the queued job, and where to poll it. */
export async function acceptJob(c: AppContext, kind: JobKind, input: Record<string, unknown>) {
  const job = await submitJob(domain(c), c.env, kind, input, background(c));
  const statusUrl = jobPath(job.id);
  c.header("Location", statusUrl);
  return c.json({ ...job, status_url: statusUrl }, 202);
}

function background(c: AppContext): Background {
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(work);
  } catch {
    // No execution context (plain Node): run it without waiting, errors logged.
    return (work) => void work.catch((err: unknown) => logError("background job", err));
  }
}
