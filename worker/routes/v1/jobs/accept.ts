import type { z } from "@hono/zod-openapi";
import type { DomainContext } from "../../../context";
import type { JobKind } from "../../../jobs/message";
import { JOB_INPUTS } from "../../../jobs/run";
import { acceptingAsync, type Background, submitJob } from "../../../jobs/submit";
import { jobPath } from "../../../jobs/view";
import { logError } from "../../../lib/log";
import { type AppContext, domain } from "../../../middleware/app-env";
import { type json, type Operation, type OperationSpec, operation } from "../../operation";
import { ACCEPTED } from "../../schemas/job";

/** 202 for an `async: true` call: the queued job, and where to poll it. */
export async function acceptJob(c: AppContext, kind: JobKind, input: Record<string, unknown>) {
  const job = await submitJob(domain(c), c.env, kind, input, background(c));
  const statusUrl = jobPath(job.id);
  c.header("Location", statusUrl);
  return c.json({ ...job, status_url: statusUrl }, 202);
}

/** The input of a job kind, as its synchronous call and the job itself validate it. */
type JobInput<K extends JobKind> = z.output<(typeof JOB_INPUTS)[K]>;

/** What the declaration of a queueable operation says beside its job. */
type QueueableSpec = Pick<OperationSpec, "price" | "bucket"> & {
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
};

/**
 * Declares an operation that accepts `async: true` (extract, ingest, consolidate): a POST for
 * a wallet whose body is its job kind's input plus the flag, validated either way. With the
 * flag it is queued as a job (acceptJob's 202); without, `run` runs now and `answer` (its
 * status and body) is the response.
 */
export function queueableOperation<K extends JobKind>(
  spec: QueueableSpec,
  kind: K,
  run: (ctx: DomainContext, input: JobInput<K>) => Promise<object>,
  answer: { status: 200 | 201; body: ReturnType<typeof json> },
): Operation {
  return operation(
    {
      method: "post",
      auth: "wallet",
      ...spec,
      request: {
        body: { content: { "application/json": { schema: acceptingAsync(JOB_INPUTS[kind]) } } },
      },
      responses: { [answer.status]: answer.body, 202: ACCEPTED },
    },
    async (c) => {
      // Validated against the body declared above, which the generic route type cannot name.
      const { async: queued, ...input } = c.req.valid("json") as JobInput<K> & {
        async?: boolean;
      };
      if (queued) return acceptJob(c, kind, input);
      return c.json(await run(domain(c), input as JobInput<K>), answer.status);
    },
  );
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
