/**
 * The Worker's `queue()` handler: batches of the jobs queue go to the jobs consumer, batches
 * of its dead-letter queue to the dead-letter consumer, and the webhooks queue and its
 * dead-letter queue to theirs (webhooks.ts; wrangler.toml configures all four).
 *
 * queues/ holds the consumers of Cloudflare Queues: thin, like the routes, over worker/'s jobs
 * and services. It imports worker/; only worker/index.ts imports it.
 */
import type { Env } from "../worker/env";
import { isDeadLetterQueue } from "../worker/jobs/message";
import { isWebhookDeadLetterQueue, isWebhookQueue } from "../worker/webhooks/message";
import { consumeDeadLetters } from "./dead-letter";
import { consumeJobs } from "./jobs";
import { consumeWebhookDeadLetters, consumeWebhooks } from "./webhooks";

export async function queue(
  batch: MessageBatch<unknown>,
  env: Env,
  // Every message is settled (ack or retry) before this returns: nothing is left to waitUntil.
  _ctx: ExecutionContext,
): Promise<void> {
  if (isWebhookDeadLetterQueue(batch.queue)) await consumeWebhookDeadLetters(batch, env);
  else if (isWebhookQueue(batch.queue)) await consumeWebhooks(batch, env);
  else if (isDeadLetterQueue(batch.queue)) await consumeDeadLetters(batch, env);
  else await consumeJobs(batch, env);
}
