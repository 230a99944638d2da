/** Webhooks' request and answer shapes (docs/webhooks.md). */
import { z } from "@hono/zod-openapi";
import { EVENT_KINDS } from "../../changes/event";
import { namespace } from "../../memories/fields";
import { WalletAddress } from "../../sharing/owner-param";
import { MAX_URL_LENGTH } from "../../webhooks/url-safety";
import { Timestamp, Uuid } from "./memory";

export const WebhookInput = z
  .object({
    url: z.string().min(1).max(MAX_URL_LENGTH).openapi({
      description:
        "Where events are POSTed: https, on a public host (no private, loopback or link-local address, by name or by IP); redirects are not followed",
      example: "https://example.com/hooks/memory",
    }),
    events: z
      .array(z.enum(EVENT_KINDS))
      .max(EVENT_KINDS.length)
      .optional()
      .openapi({ description: "Event kinds to send; all when absent or empty" }),
    namespace: namespace
      .optional()
      .openapi({ description: "Only this namespace's events; all namespaces when absent" }),
    owner: WalletAddress.optional().openapi({
      description:
        "Another wallet that granted you `namespace` (read or write): hear its events there. Absent: your own events",
    }),
    include_content: z
      .boolean()
      .optional()
      .openapi({ description: "Each memory event carries the memory's content (read when sent)" }),
  })
  .openapi("WebhookInput");

export const Webhook = z
  .object({
    id: Uuid,
    url: z.string(),
    owner: z.string().openapi({ description: "The wallet whose events it hears" }),
    events: z.array(z.string()),
    namespace: z.string().nullable(),
    include_content: z.boolean(),
    status: z.enum(["active", "failing", "disabled"]).openapi({
      description:
        "`failing`: every delivery since `failing_since` failed; after 24 hours of that it is `disabled`",
    }),
    failing_since: Timestamp.nullable(),
    disabled_at: Timestamp.nullable(),
    disabled_reason: z
      .string()
      .nullable()
      .openapi({ description: "Why it was disabled; a disabled webhook sends nothing" }),
    cursor: z.string().openapi({
      description: "The last event (its feed cursor) handed to delivery",
    }),
    created_at: Timestamp,
  })
  .openapi("Webhook");

export const RegisteredWebhook = Webhook.extend({
  secret: z.string().openapi({
    description:
      "The signing secret (`whsec_…`), shown this once: verify deliveries with it (Standard Webhooks)",
  }),
}).openapi("RegisteredWebhook");

export const WebhookDelivery = z
  .object({
    id: Uuid,
    event_id: Uuid.openapi({ description: "The event's id: the delivery's `webhook-id` header" }),
    kind: z.string(),
    attempt: z.number().int(),
    status: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The endpoint's HTTP status; null when none came" }),
    ok: z.boolean(),
    error: z.string().nullable(),
    latency_ms: z.number().int(),
    created_at: Timestamp,
  })
  .openapi("WebhookDelivery");
