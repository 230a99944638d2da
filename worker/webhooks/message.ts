/**
 * What the webhooks queue carries: one message per (webhook, event). The event is the feed's
 * answer of it (changes/event.ts) without content: a memory's content is read when it is
 * delivered, never kept in a queue. The dead-letter queue carries the same messages.
 */
import { z } from "zod";

/** Queues of webhooks (wrangler.toml): the consumer tells them from the jobs' by name. */
export const WEBHOOK_QUEUE = "memory-webhooks";
export const isWebhookQueue = (name: string) => name.startsWith(WEBHOOK_QUEUE);
export const isWebhookDeadLetterQueue = (name: string) =>
  isWebhookQueue(name) && name.endsWith("-dlq");

/** The fields of an event delivery needs; the rest of the event is passed on as it is. */
export const deliveredEvent = z.looseObject({
  id: z.uuid(),
  kind: z.string(),
  namespace: z.string(),
  memory_id: z.string().nullable().optional(),
  at: z.string(),
});
export type DeliveredEvent = z.infer<typeof deliveredEvent>;

export const webhookMessage = z.object({ webhook_id: z.uuid(), event: deliveredEvent });
export type WebhookMessage = z.infer<typeof webhookMessage>;
