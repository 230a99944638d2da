/**
 * A wallet's webhooks: list, get, delete, and the recent attempts of one. Only the wallet that
 * registered a webhook sees it; another wallet's id is the 404 of a missing one.
 */
import { sql } from "drizzle-orm";
import type { DomainContext } from "../context";
import { notFound } from "../errors";
import { type DeliveryView, deliveryAnswer, type RecordedDelivery } from "./records";
import { WEBHOOK_COLUMNS, type WebhookRow, type WebhookView, webhookView } from "./view";

/** Attempts kept per webhook (records.ts trims older ones). */
export const KEPT_DELIVERIES = 100;

const webhookNotFound = () => notFound("Webhook");

export async function listWebhooks(ctx: DomainContext): Promise<WebhookView[]> {
  const result = await ctx.db.execute<WebhookRow>(sql`
    SELECT ${sql.raw(WEBHOOK_COLUMNS)} FROM webhooks w JOIN users o ON o.id = w.owner_id
    WHERE w.user_id = ${ctx.userId}::uuid ORDER BY w.created_at, w.id`);
  return result.rows.map(webhookView);
}

export async function getWebhook(ctx: DomainContext, id: string): Promise<WebhookView> {
  const result = await ctx.db.execute<WebhookRow>(sql`
    SELECT ${sql.raw(WEBHOOK_COLUMNS)} FROM webhooks w JOIN users o ON o.id = w.owner_id
    WHERE w.id = ${id}::uuid AND w.user_id = ${ctx.userId}::uuid`);
  const row = result.rows[0];
  if (!row) throw webhookNotFound();
  return webhookView(row);
}

/** Deletes it and its attempts (cascade); messages still queued for it are dropped unsent. */
export async function deleteWebhook(ctx: DomainContext, id: string): Promise<void> {
  const result = await ctx.db.execute(sql`
    DELETE FROM webhooks WHERE id = ${id}::uuid AND user_id = ${ctx.userId}::uuid RETURNING id`);
  if (result.rows.length === 0) throw webhookNotFound();
}

interface DeliveriesRow extends Record<string, unknown> {
  found: boolean;
  deliveries: RecordedDelivery[] | string | null;
}

/** The webhook's most recent attempts, newest first. */
export async function listDeliveries(
  ctx: DomainContext,
  id: string,
  limit: number,
): Promise<DeliveryView[]> {
  const result = await ctx.db.execute<DeliveriesRow>(sql`
    SELECT EXISTS (SELECT 1 FROM webhooks WHERE id = ${id}::uuid AND user_id = ${ctx.userId}::uuid) AS found,
      (SELECT coalesce(json_agg(d ORDER BY d.created_at DESC, d.attempt DESC), '[]'::json) FROM (
        SELECT d.id, d.event_id, d.kind, d.attempt, d.status, d.ok, d.error, d.latency_ms, d.created_at
        FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.webhook_id = ${id}::uuid AND w.user_id = ${ctx.userId}::uuid
        ORDER BY d.created_at DESC, d.attempt DESC LIMIT ${limit}) d) AS deliveries`);
  const row = result.rows[0];
  if (!row?.found) throw webhookNotFound();
  const raw = row.deliveries ?? [];
  const list = (typeof raw === "string" ? JSON.parse(raw) : raw) as RecordedDelivery[];
  return list.map(deliveryAnswer);
}
