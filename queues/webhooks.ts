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
import type { Env } from "../worker/env";
import { deliverEvent, recordGaveUp } from "../worker/webhooks/deliver";
import { forEachWebhookMessage } from "./batch";

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
