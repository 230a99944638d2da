/**
 * Consumers of the webhooks queue and its dead-letter queue (wrangler.toml). Each message is
 * one event for one webhook (worker/webhooks/message.ts), delivered on its own and settled
 * explicitly: ack when delivered, or when there is nothing to deliver any more (the webhook
 * deleted or disabled, the grant revoked, the event already delivered); retry with
 * Standard Webhooks' backoff otherwise (worker/webhooks/retry.ts). After max_retries the
 * queue moves the message to the dead-letter queue, whose consumer records that it gave up
 * (GET /v1/webhooks/:id/deliveries). A message that is not a webhook message is logged and
 * acked: retrying it could never succeed. Nothing here reads or keeps a memory's content.
 */
import type { Services } from "../worker/context";
import type { Env } from "../worker/env";
import { logError } from "../worker/lib/log";
import { openServices } from "../worker/services";
import { deliverEvent, recordGaveUp } from "../worker/webhooks/deliver";
import { type WebhookMessage, webhookMessage } from "../worker/webhooks/message";
import { retryDelaySeconds } from "../worker/webhooks/retry";

export async function consumeWebhooks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await forEachWebhookMessage(batch, env, "deliver webhooks", async (services, message, msg) => {
    const outcome = await deliverEvent(services, message, msg.attempts);
    if (outcome.action === "retry") msg.retry({ delaySeconds: outcome.delaySeconds });
    else msg.ack();
  });
}

export async function consumeWebhookDeadLetters(
  batch: MessageBatch<unknown>,
  env: Env,
): Promise<void> {
  await forEachWebhookMessage(
    batch,
    env,
    "record dead webhooks",
    async (services, message, msg) => {
      await recordGaveUp(services, message);
      console.error(
        JSON.stringify({ event: "webhook_dead_lettered", webhook_id: message.webhook_id }),
      );
      msg.ack();
    },
  );
}

/**
 * Opens the services once for the batch (retrying every message if that fails), drops a
 * malformed message, hands the good ones to `handle` together, retrying it with backoff when
 * `handle` throws (the database unreachable), and closes the services.
 */
async function forEachWebhookMessage(
  batch: MessageBatch<unknown>,
  env: Env,
  what: string,
  handle: (services: Services, message: WebhookMessage, msg: Message<unknown>) => Promise<void>,
): Promise<void> {
  let opened: ReturnType<typeof openServices>;
  try {
    opened = openServices(env);
  } catch (err) {
    logError(`queue ${batch.queue}: cannot ${what}`, err);
    for (const msg of batch.messages) msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    return;
  }
  try {
    // At once: one slow endpoint (up to its 10 s) does not hold up the others' deliveries.
    await Promise.all(
      batch.messages.map(async (msg) => {
        const parsed = webhookMessage.safeParse(msg.body);
        if (!parsed.success) {
          console.error(`queue ${batch.queue}: dropping malformed message ${msg.id}`);
          msg.ack();
          return;
        }
        try {
          await handle(opened.services, parsed.data, msg);
        } catch (err) {
          logError(`queue ${batch.queue}: ${what}`, err);
          msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
        }
      }),
    );
  } finally {
    await opened.close();
  }
}
