import type { JobRow } from "../../schema/tables";
import type { DomainContext } from "../context";
import { notFound } from "../errors";
import { findJob } from "./records";

/**
 * A job as the API shows it (GET /v1/jobs/:id, and the 202 of an async call): `result` is the
 * body the synchronous call answers, once succeeded; `error` the API error's {code, message},
 * once failed (or, while queued again, the reason the last attempt failed).
 */
export function jobView(row: JobRow) {
  return {
    id: row.id,
    job_id: row.id,
    kind: row.kind,
    status: row.status,
    result: row.result ?? null,
    error: row.error ?? null,
    attempts: row.attempts,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
  };
}
export type JobView = ReturnType<typeof jobView>;

export const jobPath = (id: string) => `/v1/jobs/${id}`;

/** The caller's job; another wallet's is a 404 like a missing one. */
export async function readJob(ctx: DomainContext, id: string): Promise<JobView> {
  const row = await findJob(ctx.db, ctx.userId, id);
  if (!row) throw notFound("Job");
  return jobView(row);
}
