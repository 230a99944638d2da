/**
 * Running one job: its kind's domain function on the stored input, the result recorded on the
 * job. Extract and ingest store their facts through jobFactStore (facts.ts), so a retry
 * stores nothing twice. Consolidation runs in one transaction with the recording of its
 * result, after locking the job's row: a retry finds either nothing done or the job
 * succeeded, and two deliveries at once run it one after the other (the second does nothing).
 * Its `llm` mode thus calls the provider inside that transaction; off the request path that
 * is an acceptable price for writes that cannot be half done.
 */
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { jobs } from "../../schema/tables";
import { consolidate, consolidateInput } from "../consolidate/consolidate";
import type { DomainContext } from "../context";
import { extractInput, extractMemories } from "../ingest/extract";
import { ingest, ingestInput } from "../ingest/ingest";
import { validationError } from "../lib/validate";
import { inTransaction } from "./context";
import { jobFactStore } from "./facts";
import type { JobKind } from "./message";
import { markSucceeded } from "./records";

export interface RunnableJob {
  id: string;
  kind: JobKind;
  input: Record<string, unknown>;
}

/** The input schema of each kind: the synchronous endpoint's body, without `async`. */
export const JOB_INPUTS = {
  extract: extractInput,
  ingest: ingestInput,
  consolidate: consolidateInput,
} as const satisfies Record<JobKind, z.ZodType>;

/** Parses a stored input again: a job accepted by an older version may no longer validate. */
function inputOf<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** Runs the job and records its result; throws what the domain function threw. */
export async function executeJob(ctx: DomainContext, job: RunnableJob): Promise<void> {
  switch (job.kind) {
    case "extract": {
      const input = inputOf(JOB_INPUTS.extract, job.input);
      await markSucceeded(ctx.db, job.id, await extractMemories(ctx, input, jobFactStore(job.id)));
      return;
    }
    case "ingest": {
      const input = inputOf(JOB_INPUTS.ingest, job.input);
      await markSucceeded(ctx.db, job.id, await ingest(ctx, input, jobFactStore(job.id)));
      return;
    }
    case "consolidate": {
      const input = inputOf(JOB_INPUTS.consolidate, job.input);
      await ctx.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ status: jobs.status })
          .from(jobs)
          .where(eq(jobs.id, job.id))
          .for("update");
        if (!row || row.status === "succeeded" || row.status === "failed") return;
        const result = await consolidate(inTransaction(ctx, tx), input);
        await markSucceeded(tx, job.id, result);
      });
      return;
    }
  }
}
