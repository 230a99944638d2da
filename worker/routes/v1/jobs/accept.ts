import { type AppContext, type DomainContext, domain } from "../../../context";
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

/**
 * The answer of an operation that accepts `async: true`: queued as a job (acceptJob's 202),
 * or run now and answered with `status`.
 */
export async function runOrQueue<B extends { async?: boolean }>(
  c: AppContext,
  kind: JobKind,
  body: B,
  run: (ctx: DomainContext, input: Omit<B, "async">) => Promise<object>,
  status: 200 | 201,
) {
  const { async: background, ...input } = body;
  if (background) return acceptJob(c, kind, input);
  return c.json(await run(domain(c), input), status);
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
