/**
 * Webhooks (docs/webhooks.md): register, list, get, delete, a test delivery, and the recent
 * attempts. All free, with a wallet; a webhook is its registering wallet's alone (another
 * wallet's id is a 404). A grantee names the owner in the body (`owner`), not with `?owner=`:
 * the webhook is the grantee's own, and it keeps hearing the owner's namespace after the
 * request, as long as the grant stands.
 */
import { z } from "@hono/zod-openapi";
import { queryLimit } from "../../memories/fields";
import { domain } from "../../middleware/app-env";
import { testWebhook } from "../../webhooks/deliver";
import {
  deleteWebhook,
  getWebhook,
  KEPT_DELIVERIES,
  listDeliveries,
  listWebhooks,
} from "../../webhooks/manage";
import { deliveryAnswer } from "../../webhooks/records";
import { MAX_WEBHOOKS, registerWebhook } from "../../webhooks/register";
import { actOnIdOperation, getByIdOperation, json, operation } from "../operation";
import { ERRORS } from "../schemas/error";
import { IdParam } from "../schemas/params";
import { RegisteredWebhook, Webhook, WebhookDelivery, WebhookInput } from "../schemas/webhook";

const TAGS = ["webhooks"];

export const createWebhookOp = operation(
  {
    method: "post",
    path: "/v1/webhooks",
    operationId: "createWebhook",
    tags: TAGS,
    summary: "Register a webhook: your events (or a granted namespace's), signed, at a URL",
    description: `Events are POSTed as Standard Webhooks (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`), retried with backoff, and the webhook is disabled after a day of failures. The \`secret\` is answered this once. At most ${MAX_WEBHOOKS} webhooks per wallet (409 past that).`,
    auth: "wallet",
    request: { body: json(WebhookInput, "The URL, and which events") },
    responses: {
      201: json(RegisteredWebhook, "Registered; keep the secret, it is not shown again"),
      404: ERRORS[404],
      409: ERRORS[409],
    },
  },
  async (c) => c.json(await registerWebhook(domain(c), c.req.valid("json")), 201),
);

export const listWebhooksOp = operation(
  {
    method: "get",
    path: "/v1/webhooks",
    operationId: "listWebhooks",
    tags: TAGS,
    summary: "Your webhooks, oldest first, each with its status (and why it was disabled)",
    auth: "wallet",
    responses: { 200: json(z.object({ webhooks: z.array(Webhook) }), "Your webhooks") },
  },
  async (c) => c.json({ webhooks: await listWebhooks(domain(c)) }, 200),
);

export const getWebhookOp = getByIdOperation(
  {
    path: "/v1/webhooks/{id}",
    operationId: "getWebhook",
    tags: TAGS,
    summary: "One of your webhooks (never its secret)",
  },
  json(Webhook, "The webhook"),
  getWebhook,
);

export const deleteWebhookOp = actOnIdOperation(
  {
    method: "delete",
    path: "/v1/webhooks/{id}",
    operationId: "deleteWebhook",
    tags: TAGS,
    summary: "Delete a webhook: nothing more is sent to it",
  },
  { done: "deleted", description: "Deleted" },
  deleteWebhook,
);

export const testWebhookOp = operation(
  {
    method: "post",
    path: "/v1/webhooks/{id}/test",
    operationId: "testWebhook",
    tags: TAGS,
    summary: "Send a signed `webhook.test` event now and answer how the endpoint took it",
    auth: "wallet",
    request: { params: IdParam },
    responses: {
      200: json(
        z.object({ delivery: WebhookDelivery }),
        "The attempt, delivered or not (`ok`, `status`, `error`)",
      ),
      404: ERRORS[404],
    },
  },
  async (c) => {
    const recorded = await testWebhook(domain(c), c.req.valid("param").id);
    return c.json({ delivery: deliveryAnswer(recorded) }, 200);
  },
);

export const webhookDeliveriesOp = operation(
  {
    method: "get",
    path: "/v1/webhooks/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    tags: TAGS,
    summary: `The webhook's recent attempts, newest first (the last ${KEPT_DELIVERIES} are kept)`,
    auth: "wallet",
    request: {
      params: IdParam,
      query: z.object({ limit: queryLimit(KEPT_DELIVERIES, 50) }),
    },
    responses: {
      200: json(z.object({ deliveries: z.array(WebhookDelivery) }), "Newest first"),
      404: ERRORS[404],
    },
  },
  async (c) => {
    const { id } = c.req.valid("param");
    const list = await listDeliveries(domain(c), id, c.req.valid("query").limit);
    return c.json({ deliveries: list }, 200);
  },
);
