/**
 * Registering a webhook (POST /v1/webhooks): the caller's own events, or with `owner` those of
 * a namespace another wallet granted it. Free, at most MAX_WEBHOOKS per wallet. The URL is
 * checked (url-safety.ts) before anything is written; the secret is made here and answered
 * once. A new webhook hears the events after its registration, not the ones before.
 */
import { sql } from "drizzle-orm";
import type { DomainContext } from "../context";
import { ApiError, notFound } from "../errors";
import { issuesError } from "../lib/validate";
import { ensureUser } from "../users";
import { ownerHasWebhooks } from "./dispatch-cache";
import { newSecret } from "./sign";
import { checkTarget, policyOf } from "./url-safety";
import { WEBHOOK_COLUMNS, type WebhookRow, type WebhookView, webhookView } from "./view";

/** Webhooks a wallet may hold, disabled ones included (docs/webhooks.md, "Limits"). */
export const MAX_WEBHOOKS = 10;

export interface WebhookInput {
  url: string;
  events?: string[];
  namespace?: string;
  /** Lower-case wallet of the owner whose events to hear; absent or the caller's: its own. */
  owner?: string;
  include_content?: boolean;
}

export async function registerWebhook(
  ctx: DomainContext,
  input: WebhookInput,
): Promise<WebhookView & { secret: string }> {
  const caller = ctx.wallet.toLowerCase();
  const foreign = input.owner !== undefined && input.owner !== caller;
  if (foreign && input.namespace === undefined) {
    throw issuesError([
      { path: ["namespace"], message: "is required with `owner`: a namespace granted to you" },
    ]);
  }
  // A host whose resolver cannot be reached now (offline, a DNS outage) is accepted: every
  // delivery checks its target again before it connects (deliver.ts), and sends nothing to a
  // refused address. Only a refusal that is certain refuses the registration.
  const verdict = await checkTarget(input.url, policyOf(ctx.config));
  if (!verdict.ok && !verdict.transient) {
    throw issuesError([{ path: ["url"], message: verdict.reason }]);
  }
  // (A transient verdict comes only after the URL itself passed: it parses.)
  const target = verdict.ok ? verdict.url : new URL(input.url);
  const ownerId = foreign ? await ensureUser(ctx.db, input.owner as string) : ctx.userId;
  // A grantee may watch a namespace it was granted (read or write), and no other: one the
  // owner never granted is the 404 of a missing one, whether or not the owner has it.
  const granted = foreign
    ? sql`EXISTS (SELECT 1 FROM memory_grants g WHERE g.owner_id = ${ownerId}::uuid
        AND g.grantee = ${caller} AND g.namespace = ${input.namespace ?? null})`
    : sql`true`;
  const secret = newSecret();
  const events = [...new Set(input.events ?? [])];
  // The count and the insert in one statement, behind a lock on the caller's user row, so
  // that concurrent registrations cannot pass the cap together.
  const row = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM users WHERE id = ${ctx.userId}::uuid FOR UPDATE`);
    const result = await tx.execute<WebhookRow & { full: boolean; refused: boolean }>(sql`
      WITH state AS (
        SELECT (SELECT count(*) FROM webhooks WHERE user_id = ${ctx.userId}::uuid) >= ${MAX_WEBHOOKS} AS full,
          NOT ${granted} AS refused
      ),
      w AS (
        INSERT INTO webhooks (user_id, owner_id, url, events, namespace, include_content, secret, cursor)
        SELECT ${ctx.userId}::uuid, ${ownerId}::uuid, ${target.toString()},
          ${sql.param(events)}::text[], ${input.namespace ?? null}, ${input.include_content ?? false},
          ${secret}, coalesce((SELECT seq FROM event_counters WHERE user_id = ${ownerId}::uuid), 0)
        FROM state WHERE NOT state.full AND NOT state.refused
        RETURNING *
      )
      SELECT state.full, state.refused, ${sql.raw(WEBHOOK_COLUMNS)}
      FROM state LEFT JOIN w ON true LEFT JOIN users o ON o.id = w.owner_id`);
    return result.rows[0];
  });
  if (!row || row.refused) throw notFound("Namespace");
  if (row.full) {
    throw new ApiError(
      "CONFLICT",
      `A wallet may register at most ${MAX_WEBHOOKS} webhooks; delete one first (DELETE /v1/webhooks/{id})`,
      { limit: MAX_WEBHOOKS },
    );
  }
  ownerHasWebhooks(ownerId);
  return { ...webhookView(row), secret };
}
