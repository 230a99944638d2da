/**
 * Handing events to webhooks. Each webhook has a cursor: the last event number of its owner's
 * feed handed to delivery. A dispatch reads the events after it through the feed's own
 * statement (changes/feed.ts readChanges: the same order, filters, expiry sweep and, for a
 * grantee's webhook, the same grant scope as GET /v1/changes?owner=), sends one message per
 * (webhook, event), and only then moves the cursor, with a conditional UPDATE (cursor = the
 * one it read from). A dispatch that fails after sending leaves the cursor, so the events are
 * sent again: duplicates are possible, losses are not (at-least-once; the event id is the
 * receiver's idempotency key, and the consumer skips an event already delivered).
 *
 * Dispatches run after a request that may have written (middleware/webhook-dispatch.ts), off
 * the response path, and every minute for every webhook behind (catchUpAll, the cron).
 */
import { sql } from "drizzle-orm";
import { announceExpiries, readChanges } from "../changes/feed";
import type { Services } from "../context";
import { domainContext } from "../context";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { logError } from "../lib/log";
import { deliverEvent } from "./deliver";
import { mayHaveWebhooks, rememberWebhooks } from "./dispatch-cache";
import type { WebhookMessage } from "./message";
import { textArray } from "./view";

/** Events read per statement, and sent per sendBatch (Queues' bound is 100 messages). */
const PAGE = 100;
/** Pages per webhook per dispatch: the rest waits for the next one (bounded work per run). */
const MAX_PAGES = 10;
/** Owners the minute's catch-up handles at most; the others next minute. */
const CATCH_UP_OWNERS = 200;
/** A dispatch of this isolate older than this is presumed dead (its invocation ended). */
const STALE_MS = 60_000;

/** Where messages go: the webhooks queue, or without one, delivery here and now. */
export type Sink = (messages: WebhookMessage[]) => Promise<void>;

export function sinkFor(env: Env, services: Services): Sink {
  const queue = env.WEBHOOKS_QUEUE;
  if (queue) {
    return async (messages) => {
      for (let i = 0; i < messages.length; i += PAGE) {
        await queue.sendBatch(
          messages.slice(i, i + PAGE).map((body) => ({ body, contentType: "json" as const })),
        );
      }
    };
  }
  // No queue (a deployment without the binding): one attempt each, no retries.
  return async (messages) => {
    for (const message of messages) {
      const outcome = await deliverEvent(services, message, 1);
      if (outcome.action === "retry") {
        console.error(
          JSON.stringify({ event: "webhook_failed_no_queue", webhook_id: message.webhook_id }),
        );
      }
    }
  };
}

/** Dispatches of this isolate in progress, by owner: a second one asks the first to go again. */
const running = new Map<string, { again: boolean; started: number }>();

/**
 * Dispatches the owner's webhooks, unless this isolate is doing so already: then that one
 * runs once more when done, so an event committed meanwhile is not left for the cron.
 */
export async function dispatchFor(
  services: Services,
  sink: Sink,
  ownerId: string,
  force = false,
): Promise<void> {
  if (!force && !mayHaveWebhooks(ownerId)) return;
  const other = running.get(ownerId);
  if (other && Date.now() - other.started < STALE_MS) {
    other.again = true;
    return;
  }
  const mine = { again: false, started: Date.now() };
  running.set(ownerId, mine);
  try {
    for (let round = 0; round < 5; round++) {
      mine.again = false;
      await dispatchOwner(services, sink, ownerId);
      if (!mine.again) break;
    }
  } finally {
    if (running.get(ownerId) === mine) running.delete(ownerId);
  }
}

interface WebhookState extends Record<string, unknown> {
  id: string;
  wallet: string;
  shared: boolean;
  events: string[] | string;
  namespace: string | null;
  cursor: number | string;
  top: number | string;
  granted: boolean;
}

/** Every enabled webhook of the owner that is behind its feed, caught up one after another. */
async function dispatchOwner(services: Services, sink: Sink, ownerId: string): Promise<void> {
  const result = await services.db.execute<WebhookState>(sql`
    SELECT w.id, u.wallet, w.user_id <> w.owner_id AS shared, w.events, w.namespace, w.cursor,
      coalesce(c.seq, 0) AS top,
      (w.user_id = w.owner_id OR EXISTS (SELECT 1 FROM memory_grants g
        WHERE g.owner_id = w.owner_id AND g.grantee = u.wallet
          AND (w.namespace IS NULL OR g.namespace = w.namespace))) AS granted
    FROM webhooks w JOIN users u ON u.id = w.user_id
    LEFT JOIN event_counters c ON c.user_id = w.owner_id
    WHERE w.owner_id = ${ownerId}::uuid AND w.disabled_at IS NULL`);
  rememberWebhooks(ownerId, result.rows.length > 0);
  for (const state of result.rows) {
    if (Number(state.cursor) >= Number(state.top)) continue;
    try {
      await catchUp(services, sink, ownerId, state);
    } catch (err) {
      // The next dispatch (or the cron) starts again from the cursor.
      logError(`webhook ${state.id}: dispatch`, err);
    }
  }
}

async function catchUp(
  services: Services,
  sink: Sink,
  ownerId: string,
  state: WebhookState,
): Promise<void> {
  if (!state.granted) {
    await disable(services, state.id, "grant revoked: the owner no longer shares this namespace");
    return;
  }
  const ctx = domainContext(services, {
    wallet: state.wallet,
    userId: ownerId,
    ...(state.shared ? { grant: { grantee: state.wallet, need: "read" as const } } : {}),
  });
  const kinds = textArray(state.events);
  let cursor = String(state.cursor);
  for (let page = 0; page < MAX_PAGES; page++) {
    let read: Awaited<ReturnType<typeof readChanges>>;
    try {
      read = await readChanges(ctx, {
        since: cursor,
        namespace: state.namespace ?? undefined,
        limit: PAGE,
        wait: 0,
        includeContent: false,
        kinds: kinds.length > 0 ? kinds : undefined,
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === "GONE") {
        await disable(
          services,
          state.id,
          "fell behind: events after its cursor were pruned before they could be sent",
        );
        return;
      }
      throw err;
    }
    if (read.changes.length > 0) {
      await sink(read.changes.map((event) => ({ webhook_id: state.id, event })));
    }
    // With nothing more to read, the cursor may pass the events the webhook does not see (a
    // grantee's feed ends at its last visible event): up to the end read before, which the
    // read covered. Else a shared webhook would look behind at every write and every minute.
    const next = read.has_more
      ? Number(read.next_cursor)
      : Math.max(Number(read.next_cursor), Number(state.top));
    const moved = await services.db.execute(sql`
      UPDATE webhooks SET cursor = ${next}
      WHERE id = ${state.id}::uuid AND cursor = ${Number(cursor)} RETURNING 1`);
    // Another dispatch moved it first: it carries on from there.
    if (moved.rows.length === 0 || !read.has_more) return;
    cursor = read.next_cursor;
  }
}

async function disable(services: Services, id: string, reason: string): Promise<void> {
  await services.db.execute(sql`
    UPDATE webhooks SET disabled_at = now(), disabled_reason = ${reason}
    WHERE id = ${id}::uuid AND disabled_at IS NULL`);
}

/**
 * The cron's catch-up: every owner with an enabled webhook behind its feed, after telling the
 * expiries that came due in those owners' memories (an expiry writes nothing when it happens:
 * without this, its webhooks would hear of it only at the owner's next write or feed read).
 */
export async function catchUpAll(services: Services, sink: Sink): Promise<number> {
  await services.db.execute(
    announceExpiries(sql`m.user_id IN (SELECT owner_id FROM webhooks WHERE disabled_at IS NULL)`),
  );
  const owners = await services.db.execute<{ owner_id: string }>(sql`
    SELECT DISTINCT w.owner_id FROM webhooks w JOIN event_counters c ON c.user_id = w.owner_id
    WHERE w.disabled_at IS NULL AND w.cursor < c.seq LIMIT ${CATCH_UP_OWNERS}`);
  for (const { owner_id } of owners.rows) {
    await dispatchFor(services, sink, owner_id, true).catch((err: unknown) =>
      logError("webhooks catch-up", err),
    );
  }
  return owners.rows.length;
}
