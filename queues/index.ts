/**
 * The Worker's `queue()` handler: batches of the jobs queue go to the jobs consumer, batches
 * of its dead-letter queue to the dead-letter consumer (wrangler.toml configures both).
 *
 * queues/ holds the consumers of Cloudflare Queues: thin, like the routes, over worker/'s jobs
 * and services. It imports worker/; only worker/index.ts imports it.
 */
import type { Env } from "../worker/env";
import { isDeadLetterQueue } from "../worker/jobs/message";
import { consumeDeadLetters } from "./dead-letter";
import { consumeJobs } from "./jobs";

export async function queue(
  batch: MessageBatch<unknown>,
  env: Env,
  // Every message is settled (ack or retry) before this returns: nothing is left to waitUntil.
  _ctx: ExecutionContext,
): Promise<void> {
  if (isDeadLetterQueue(batch.queue)) await consumeDeadLetters(batch, env);
  else await consumeJobs(batch, env);
}
