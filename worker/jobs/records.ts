/**
 * The jobs table's state changes. A job moves queued → running → succeeded | failed, and
 * back to queued (with the failure in `error`) while a retry waits. Only queued and running
 * jobs change: a finished job is final, so a late or duplicate delivery changes nothing.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { type JobRow, jobs } from "../../schema/tables";
import type { DbOrTx } from "../db/client";
import type { JobKind, JobMessage } from "./message";
import type { JobError } from "./retry";

const UNFINISHED = ["queued", "running"] as const;

export async function insertJob(
  db: DbOrTx,
  userId: string,
  kind: JobKind,
  input: Record<string, unknown>,
): Promise<JobRow> {
  const [row] = await db.insert(jobs).values({ userId, kind, input }).returning();
  if (!row) throw new Error("job insert returned no row");
  return row;
}

export async function findJob(db: DbOrTx, userId: string, id: string): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.userId, userId)))
    .limit(1);
  return row ?? null;
}

export interface StartedJob {
  id: string;
  userId: string;
  wallet: string;
  kind: JobKind;
  input: Record<string, unknown>;
  attempts: number;
}

/**
 * Marks the job of a message running and counts the attempt; null when there is nothing to
 * run: no such job, not this user's or kind, or already finished.
 */
export async function startJob(db: DbOrTx, message: JobMessage): Promise<StartedJob | null> {
  const result = await db.execute<{
    id: string;
    user_id: string;
    wallet: string;
    kind: JobKind;
    input: Record<string, unknown>;
    attempts: number;
  }>(sql`
    UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1,
      started_at = coalesce(jobs.started_at, now()), updated_at = now()
    FROM users
    WHERE jobs.id = ${message.job_id} AND jobs.user_id = ${message.user_id}
      AND jobs.kind = ${message.kind} AND jobs.status IN ('queued', 'running')
      AND users.id = jobs.user_id
    RETURNING jobs.id, jobs.user_id, users.wallet, jobs.kind, jobs.input, jobs.attempts`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    wallet: row.wallet,
    kind: row.kind,
    input: row.input,
    attempts: Number(row.attempts),
  };
}

/** Records the result; false when the job had already finished (nothing changed). */
export async function markSucceeded(
  db: DbOrTx,
  id: string,
  result: Record<string, unknown>,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: "succeeded",
      result,
      error: null,
      updatedAt: sql`now()`,
      finishedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, UNFINISHED)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** A failed attempt that will be retried: back to queued, with the reason for the record. */
export async function markRetrying(db: DbOrTx, id: string, error: JobError): Promise<void> {
  await db
    .update(jobs)
    .set({ status: "queued", error, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, id), inArray(jobs.status, UNFINISHED)));
}

/**
 * Fails an unfinished job. `error` replaces the stored reason unless `keepStored`, which the
 * dead-letter consumer uses: the last attempt's reason (markRetrying) is the real one.
 */
export async function markFailed(
  db: DbOrTx,
  where: { id: string; userId?: string; kind?: JobKind },
  error: JobError,
  keepStored = false,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: "failed",
      error: keepStored ? sql`coalesce(${jobs.error}, ${JSON.stringify(error)}::jsonb)` : error,
      updatedAt: sql`now()`,
      finishedAt: sql`now()`,
    })
    .where(
      and(
        eq(jobs.id, where.id),
        where.userId === undefined ? undefined : eq(jobs.userId, where.userId),
        where.kind === undefined ? undefined : eq(jobs.kind, where.kind),
        inArray(jobs.status, UNFINISHED),
      ),
    )
    .returning({ id: jobs.id });
  return rows.length > 0;
}
