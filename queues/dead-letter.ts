/**
 * Consumer of the dead-letter queue: a job whose message used up its retries is marked failed,
 * with the reason its last attempt recorded (worker/jobs/process.ts keeps it on the job before
 * each retry), so the user sees why in GET /v1/jobs/:id. A job that recorded none (its
 * attempts never got to run it) fails with a generic reason. Finished jobs are left alone.
 * If the database cannot be reached the message is retried like any other.
 */
import type { Env } from "../worker/env";
import { markFailed } from "../worker/jobs/records";
import { backoffSeconds } from "../worker/jobs/retry";
import { logError } from "../worker/lib/log";
import { forEachJobMessage } from "./batch";

export const GAVE_UP_MESSAGE = "The job could not be completed after repeated attempts";

export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await forEachJobMessage(batch, env, "record dead jobs", async (services, job, msg) => {
    const { job_id, user_id, kind } = job;
    try {
      const failed = await markFailed(
        services.db,
        { id: job_id, userId: user_id, kind },
        { code: "INTERNAL_ERROR", message: GAVE_UP_MESSAGE },
        true,
      );
      console.error(`job ${job_id}: dead-lettered${failed ? ", marked failed" : " (finished)"}`);
      msg.ack();
    } catch (err) {
      logError(`job ${job_id}: could not record the dead letter`, err);
      msg.retry({ delaySeconds: backoffSeconds(msg.attempts) });
    }
  });
}
