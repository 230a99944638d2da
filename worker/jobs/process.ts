/**
 * One delivery of a job message, whichever way it arrives (the queue consumer, or in-process
 * when the Worker has no queue binding): start the job, run it, and decide what becomes of
 * the message. The caller acts on the outcome (queues/jobs.ts: ack or retry).
 */
import { domainContext, type Services } from "../context";
import { logError } from "../lib/log";
import type { JobMessage } from "./message";
import { markFailed, markRetrying, startJob } from "./records";
import { backoffSeconds, isRetryable, jobErrorOf } from "./retry";
import { executeJob } from "./run";

export type Outcome =
  | { action: "ack"; status: "succeeded" | "failed" | "skipped" }
  | { action: "retry"; delaySeconds: number };

export interface Delivery {
  message: JobMessage;
  /** Deliveries of this message so far, this one included (Queues' `attempts`, from 1). */
  attempts: number;
  /** False where nothing can redeliver the message: a retryable failure then fails the job. */
  canRetry: boolean;
}

export async function processJob(services: Services, delivery: Delivery): Promise<Outcome> {
  const retry = (): Outcome => ({
    action: "retry",
    delaySeconds: backoffSeconds(delivery.attempts),
  });
  let job: Awaited<ReturnType<typeof startJob>>;
  try {
    job = await startJob(services.db, delivery.message);
  } catch (err) {
    logError(`job ${delivery.message.job_id}: could not start`, err);
    return delivery.canRetry ? retry() : { action: "ack", status: "skipped" };
  }
  // Missing, another user's, or finished already (a duplicate or late delivery).
  if (!job) return { action: "ack", status: "skipped" };

  try {
    await executeJob(domainContext(services, { userId: job.userId, wallet: job.wallet }), job);
    return { action: "ack", status: "succeeded" };
  } catch (err) {
    const error = jobErrorOf(err);
    const retryable = delivery.canRetry && isRetryable(err);
    logError(
      `job ${job.id} (${job.kind}) attempt ${job.attempts} failed${retryable ? ", will retry" : ""}`,
      err,
    );
    try {
      if (retryable) {
        // Kept on the job so that the dead-letter consumer can report it (queues/dead-letter.ts).
        await markRetrying(services.db, job.id, error);
        return retry();
      }
      await markFailed(services.db, { id: job.id }, error);
      return { action: "ack", status: "failed" };
    } catch (recordErr) {
      // The database is the likely cause of both: let the queue deliver the message again.
      logError(`job ${job.id}: could not record the failure`, recordErr);
      return delivery.canRetry ? retry() : { action: "ack", status: "skipped" };
    }
  }
}
