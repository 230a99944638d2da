/**
 * What every consumer does with a batch: open the services once (retrying every message with
 * backoff if that fails), drop a message its schema refuses (retrying it could never
 * succeed), hand each message to `handle`, and close the services. Jobs are handled one at a
 * time (a batch is small, and the database connection is shared); webhook deliveries at once,
 * so that one slow endpoint (up to its 10 s) does not hold up the others, and a delivery that
 * throws (the database unreachable) is retried with backoff instead of failing the batch.
 */
import type { z } from "zod";
import type { Services } from "../worker/context";
import type { Env } from "../worker/env";
import { type JobMessage, jobMessage } from "../worker/jobs/message";
import { backoffSeconds } from "../worker/jobs/retry";
import { logError } from "../worker/lib/log";
import { openServices } from "../worker/services";
import { type WebhookMessage, webhookMessage } from "../worker/webhooks/message";
import { retryDelaySeconds } from "../worker/webhooks/retry";

interface Kind<T> {
  schema: z.ZodType<T>;
  /** Seconds before a retry, after `attempts` deliveries. */
  delay: (attempts: number) => number;
  /** Handle the batch's messages at once (else one after another, a throw failing the rest). */
  together: boolean;
}

const JOBS: Kind<JobMessage> = { schema: jobMessage, delay: backoffSeconds, together: false };
const WEBHOOKS: Kind<WebhookMessage> = {
  schema: webhookMessage,
  delay: retryDelaySeconds,
  together: true,
};

type Handle<T> = (services: Services, message: T, msg: Message<unknown>) => Promise<void>;

async function forEachMessage<T>(
  kind: Kind<T>,
  batch: MessageBatch<unknown>,
  env: Env,
  what: string,
  handle: Handle<T>,
): Promise<void> {
  let opened: ReturnType<typeof openServices>;
  try {
    opened = openServices(env);
  } catch (err) {
    logError(`queue ${batch.queue}: cannot ${what}`, err);
    for (const msg of batch.messages) msg.retry({ delaySeconds: kind.delay(msg.attempts) });
    return;
  }
  const one = async (msg: Message<unknown>) => {
    const parsed = kind.schema.safeParse(msg.body);
    if (!parsed.success) {
      console.error(`queue ${batch.queue}: dropping malformed message ${msg.id}`, {
        issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      msg.ack();
      return;
    }
    if (!kind.together) return handle(opened.services, parsed.data, msg);
    try {
      await handle(opened.services, parsed.data, msg);
    } catch (err) {
      logError(`queue ${batch.queue}: ${what}`, err);
      msg.retry({ delaySeconds: kind.delay(msg.attempts) });
    }
  };
  try {
    if (kind.together) await Promise.all(batch.messages.map(one));
    else for (const msg of batch.messages) await one(msg);
  } finally {
    await opened.close();
  }
}

/** `kind`'s consumer: forEachMessage with the kind fixed. */
const consumerOf =
  <T>(kind: Kind<T>) =>
  (batch: MessageBatch<unknown>, env: Env, what: string, handle: Handle<T>) =>
    forEachMessage(kind, batch, env, what, handle);

export const forEachJobMessage = consumerOf(JOBS);

export const forEachWebhookMessage = consumerOf(WEBHOOKS);
