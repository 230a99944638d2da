/**
 * Consumer of the jobs queue. Each message is one job (worker/jobs/message.ts), handled on its
 * own and settled explicitly: ack when the job succeeded, failed for good, or has nothing to
 * do (missing, finished, a duplicate delivery); retry with exponential backoff after a
 * retryable failure (worker/jobs/retry.ts). After `max_retries` retries (wrangler.toml) the
 * queue moves the message to the dead-letter queue (dead-letter.ts). A message that is not a
 * job message is logged and acked: retrying it could never succeed.
 */
import type { Env } from "../worker/env";
import { jobMessage } from "../worker/jobs/message";
import { processJob } from "../worker/jobs/process";
import { backoffSeconds } from "../worker/jobs/retry";
import { logError } from "../worker/lib/log";
import { openServices } from "../worker/services";

export async function consumeJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  let opened: ReturnType<typeof openServices>;
  try {
    opened = openServices(env);
  } catch (err) {
    logError(`queue ${batch.queue}: cannot run jobs`, err);
    for (const msg of batch.messages) msg.retry({ delaySeconds: backoffSeconds(msg.attempts) });
    return;
  }
  try {
    // One at a time: a batch is small (max_batch_size) and the database connection is shared.
    for (const msg of batch.messages) {
      const parsed = jobMessage.safeParse(msg.body);
      if (!parsed.success) {
        console.error(`queue ${batch.queue}: dropping malformed message ${msg.id}`, {
          issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
        });
        msg.ack();
        continue;
      }
      const outcome = await processJob(opened.services, {
        message: parsed.data,
        attempts: msg.attempts,
        canRetry: true,
      });
      if (outcome.action === "retry") msg.retry({ delaySeconds: outcome.delaySeconds });
      else msg.ack();
    }
  } finally {
    await opened.close();
  }
}
