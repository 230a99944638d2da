/**
 * Delivering one event to one webhook (the queue consumer's work, queues/webhooks.ts, and the
 * in-process fallback's): one statement reads what the delivery needs and whether it still
 * may happen; then one attempt (post.ts), its record (records.ts), and what the queue should
 * do with the message. A webhook deleted or disabled since, a grant revoked since, or an event
 * this webhook already received (a duplicate message: at-least-once) is acked unsent.
 */
import { sql } from "drizzle-orm";
import type { DomainContext, Services } from "../context";
import { notFound } from "../errors";
import type { WebhookMessage } from "./message";
import { payloadOf } from "./payload";
import { postWebhook } from "./post";
import { type RecordedDelivery, recordAttempt } from "./records";
import { MAX_ATTEMPTS, retryDelaySeconds } from "./retry";
import { policyOf } from "./url-safety";

export type Outcome = { action: "ack" } | { action: "retry"; delaySeconds: number };

interface TargetRow extends Record<string, unknown> {
  url: string;
  secret: string;
  include_content: boolean;
  disabled: boolean;
  granted: boolean;
  delivered: boolean;
  content: string | null;
}

export async function deliverEvent(
  services: Services,
  message: WebhookMessage,
  attempt: number,
): Promise<Outcome> {
  const { event } = message;
  const memoryId = event.memory_id ?? null;
  // A grantee's webhook delivers only what its grant still covers: checked here too, since
  // the message may have waited in the queue while the grant was revoked.
  const result = await services.db.execute<TargetRow>(sql`
    SELECT w.url, w.secret, w.include_content, w.disabled_at IS NOT NULL AS disabled,
      (w.user_id = w.owner_id OR EXISTS (
        SELECT 1 FROM memory_grants g JOIN users u ON u.id = w.user_id
        WHERE g.owner_id = w.owner_id AND g.grantee = u.wallet AND g.namespace = ${event.namespace})) AS granted,
      EXISTS (SELECT 1 FROM webhook_deliveries d
        WHERE d.webhook_id = w.id AND d.event_id = ${event.id}::uuid AND d.ok) AS delivered,
      CASE WHEN w.include_content THEN (
        SELECT CASE WHEN m.namespace = ${event.namespace} THEN m.content END
        FROM memories m WHERE m.id = ${memoryId}::uuid AND m.user_id = w.owner_id) END AS content
    FROM webhooks w WHERE w.id = ${message.webhook_id}::uuid`);
  const target = result.rows[0];
  if (!target || target.disabled || !target.granted || target.delivered) return { action: "ack" };
  const data: Record<string, unknown> = { ...event };
  // As the feed answers with include_content: the memory's content now, null once it left
  // the event's namespace; events of no memory (grants) carry none.
  if (target.include_content && memoryId) data.content = target.content ?? null;
  const body = payloadOf(event.kind, event.at, data);
  const sent = await postWebhook(target, event.id, body, policyOf(services.config));
  await recordAttempt(
    services.db,
    { webhookId: message.webhook_id, eventId: event.id, kind: event.kind, attempt },
    sent,
    true,
  );
  if (sent.ok || sent.status === 410) return { action: "ack" };
  return { action: "retry", delaySeconds: retryDelaySeconds(attempt) };
}

/**
 * The dead-letter queue's record of an event that used up its attempts: one more row saying
 * so (unless another copy of the message was delivered), counted as a failure of the endpoint.
 */
export async function recordGaveUp(services: Services, message: WebhookMessage): Promise<void> {
  const { event } = message;
  const done = await services.db.execute<{ delivered: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = ${message.webhook_id}::uuid
      AND d.event_id = ${event.id}::uuid AND d.ok) AS delivered`);
  if (done.rows[0]?.delivered) return;
  await recordAttempt(
    services.db,
    { webhookId: message.webhook_id, eventId: event.id, kind: event.kind, attempt: MAX_ATTEMPTS },
    {
      ok: false,
      status: null,
      error: `gave up after ${MAX_ATTEMPTS} attempts (dead-lettered)`,
      latency_ms: 0,
    },
    true,
  );
}

/**
 * POST /v1/webhooks/{id}/test: a `webhook.test` event sent now, signed like any other, its
 * attempt recorded (without touching the webhook's health) and answered. Works on a disabled
 * webhook too, to check an endpoint before registering it again.
 */
export async function testWebhook(ctx: DomainContext, id: string): Promise<RecordedDelivery> {
  const result = await ctx.db.execute<{ url: string; secret: string }>(sql`
    SELECT url, secret FROM webhooks WHERE id = ${id}::uuid AND user_id = ${ctx.userId}::uuid`);
  const target = result.rows[0];
  if (!target) throw notFound("Webhook");
  const event = {
    id: crypto.randomUUID(),
    kind: "webhook.test",
    webhook_id: id,
    at: new Date().toISOString(),
  };
  const sent = await postWebhook(
    target,
    event.id,
    payloadOf(event.kind, event.at, event),
    policyOf(ctx.config),
  );
  const recorded = await recordAttempt(
    ctx.db,
    { webhookId: id, eventId: event.id, kind: event.kind, attempt: 1 },
    sent,
    false,
  );
  if (!recorded) throw notFound("Webhook");
  return recorded;
}
