import { z } from "@hono/zod-openapi";
import { Timestamp, Uuid } from "./memory";

/** A background job (jobs/view.ts jobView): `result` is the synchronous call's body once done. */
export const Job = z
  .object({
    id: Uuid,
    job_id: Uuid,
    kind: z.enum(["extract", "ingest", "consolidate"]),
    status: z.enum(["queued", "running", "succeeded", "failed"]),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    attempts: z.number().int(),
    created_at: Timestamp,
    updated_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
  })
  .openapi("Job");

/** The 202 of an `async: true` call: the queued job and where to poll it (also `Location`). */
export const AcceptedJob = Job.extend({ status_url: z.string() });

export const ACCEPTED = {
  description: "With `async: true`: the job, queued; poll `status_url` (GET /v1/jobs/{id})",
  content: { "application/json": { schema: AcceptedJob } },
  headers: z.object({ Location: z.string() }),
};
