/**
 * Consumer of the jobs queue. Each message is one job (worker/jobs/message.ts), handled on its
 * own and settled explicitly: ack when the job succeeded, failed for good, or has nothing to
 * do (missing, finished, a duplicate delivery); retry with exponential backoff after a
 * retryable failure (worker/jobs/retry.ts). After `max_retries` retries (wrangler.toml) the
 * queue moves the message to the dead-letter queue (dead-letter.ts). A message that is not a
 * job message is logged and acked: retrying it could never succeed.
 */
import type { Env } from "../worker/env";
import { processJob } from "../worker/jobs/process";
import { dispatchAfterResponse } from "../worker/webhooks/run";
import { forEachJobMessage } from "./batch";

export async function consumeJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await forEachJobMessage(batch, env, "run jobs", async (services, message, msg) => {
    const outcome = await processJob(services, { message, attempts: msg.attempts, canRetry: true });
    if (outcome.action === "retry") msg.retry({ delaySeconds: outcome.delaySeconds });
    else msg.ack();
    // What the job stored reaches the owner's webhooks now, not at the minute's catch-up.
    dispatchAfterResponse(services, env, message.user_id);
  });
}
