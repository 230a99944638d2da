/**
 * The record of each attempt (webhook_deliveries, the newest KEPT_DELIVERIES per webhook) and
 * what it says of the endpoint's health, in one statement: a success clears `failing_since`;
 * a failure sets it when unset, and disables the webhook once it is more than FAILING_HOURS
 * old (or at once on 410 Gone, Standard Webhooks' "stop sending"), with the reason in its
 * list entry. Test deliveries are recorded without touching health.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { KEPT_DELIVERIES } from "./manage";
import type { Attempt } from "./post";

/** An endpoint whose every delivery failed for this long is disabled. */
export const FAILING_HOURS = 24;

export interface AttemptOf {
  webhookId: string;
  eventId: string;
  kind: string;
  attempt: number;
}

export interface RecordedDelivery extends Record<string, unknown> {
  id: string;
  event_id: string;
  kind: string;
  attempt: number;
  status: number | null;
  ok: boolean;
  error: string | null;
  latency_ms: number;
  created_at: string | Date;
}

/** An attempt as the API answers it (GET /v1/webhooks/:id/deliveries, the test delivery). */
export function deliveryAnswer(d: RecordedDelivery) {
  return {
    id: d.id,
    event_id: d.event_id,
    kind: d.kind,
    attempt: Number(d.attempt),
    status: d.status === null ? null : Number(d.status),
    ok: d.ok,
    error: d.error,
    latency_ms: Number(d.latency_ms),
    created_at: new Date(d.created_at).toISOString(),
  };
}
export type DeliveryView = ReturnType<typeof deliveryAnswer>;

export async function recordAttempt(
  db: Db,
  of: AttemptOf,
  result: Attempt,
  health: boolean,
): Promise<RecordedDelivery | undefined> {
  const gone = result.status === 410;
  const healthUpdate = !health
    ? sql`SELECT 1 WHERE false`
    : result.ok
      ? sql`UPDATE webhooks SET failing_since = NULL
          WHERE id = ${of.webhookId}::uuid AND failing_since IS NOT NULL RETURNING 1`
      : sql`UPDATE webhooks SET
          failing_since = coalesce(failing_since, now()),
          disabled_at = CASE WHEN ${gone}::boolean OR failing_since < now() - make_interval(hours => ${FAILING_HOURS})
            THEN now() END,
          disabled_reason = CASE
            WHEN ${gone}::boolean THEN 'The endpoint answered 410 Gone'
            WHEN failing_since < now() - make_interval(hours => ${FAILING_HOURS}) THEN
              ${`Every delivery failed for more than ${FAILING_HOURS} hours (since `}::text
              || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
              || '); last: ' || ${result.error ?? "failed"}::text
            END
        WHERE id = ${of.webhookId}::uuid AND disabled_at IS NULL RETURNING 1`;
  const rows = await db.execute<RecordedDelivery>(sql`
    WITH inserted AS (
      INSERT INTO webhook_deliveries (webhook_id, event_id, kind, attempt, status, ok, error, latency_ms)
      SELECT id, ${of.eventId}::uuid, ${of.kind}::text, ${of.attempt}::int, ${result.status}::int,
        ${result.ok}::boolean, ${result.error}::text, ${Math.round(result.latency_ms)}::int
      FROM webhooks WHERE id = ${of.webhookId}::uuid
      RETURNING id, event_id, kind, attempt, status, ok, error, latency_ms, created_at
    ),
    trimmed AS (
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries WHERE webhook_id = ${of.webhookId}::uuid
        ORDER BY created_at DESC, attempt DESC OFFSET ${KEPT_DELIVERIES - 1})
      RETURNING 1
    ),
    health AS (${healthUpdate})
    SELECT i.*, (SELECT count(*) FROM trimmed) AS trimmed, (SELECT count(*) FROM health) AS changed
    FROM inserted i`);
  return rows.rows[0];
}
