/**
 * What both consumers do with a batch: open the services once (retrying every message with
 * backoff if that fails), drop a message that is not a job message (retrying it could never
 * succeed), hand each job message to `handle` one at a time (a batch is small, and the
 * database connection is shared), and close the services.
 */
import type { Services } from "../worker/context";
import type { Env } from "../worker/env";
import { type JobMessage, jobMessage } from "../worker/jobs/message";
import { backoffSeconds } from "../worker/jobs/retry";
import { logError } from "../worker/lib/log";
import { openServices } from "../worker/services";

export async function forEachJobMessage(
  batch: MessageBatch<unknown>,
  env: Env,
  what: string,
  handle: (services: Services, job: JobMessage, msg: Message<unknown>) => Promise<void>,
): Promise<void> {
  let opened: ReturnType<typeof openServices>;
  try {
    opened = openServices(env);
  } catch (err) {
    logError(`queue ${batch.queue}: cannot ${what}`, err);
    for (const msg of batch.messages) msg.retry({ delaySeconds: backoffSeconds(msg.attempts) });
    return;
  }
  try {
    for (const msg of batch.messages) {
      const parsed = jobMessage.safeParse(msg.body);
      if (!parsed.success) {
        console.error(`queue ${batch.queue}: dropping malformed message ${msg.id}`, {
          issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
        });
        msg.ack();
        continue;
      }
      await handle(opened.services, parsed.data, msg);
    }
  } finally {
    await opened.close();
  }
}
