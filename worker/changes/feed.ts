/**
 * The change feed of one wallet (GET /v1/changes; docs/changes.md): its events after a
 * cursor, in commit order, read in one statement that also writes what a read must see first:
 * the expiries that came due (an expiry writes nothing when it happens) and the pruning of
 * events past retention.
 */
import { type SQL, sql } from "drizzle-orm";
import type { DomainContext } from "../context";
import { ApiError } from "../errors";
import { grantedNamespace } from "../sharing/scope";
import { type ChangeEvent, type EventRow, eventAnswer } from "./event";

/** Events are kept this long, and at most EVENT_CAP of them per wallet (docs/changes.md). */
export const RETENTION_DAYS = 30;
export const EVENT_CAP = 100_000;
/** Events pruned by one read at most: the rest go with the next reads. */
const PRUNE_BATCH = 5_000;
/**
 * How often a waiting read looks again: an event reaches a waiting reader within this, plus a
 * statement. One short indexed statement per look (docs/changes.md, "Waiting").
 */
const POLL_MS = 100;

export interface FeedQuery {
  /** After this cursor; "now": from the current end; absent: from the oldest event kept. */
  since?: string;
  namespace?: string;
  limit: number;
  /** Seconds to hold the request while there is nothing to answer. */
  wait: number;
  includeContent: boolean;
  kinds?: string[];
}

export interface FeedPage {
  changes: ChangeEvent[];
  next_cursor: string;
  has_more: boolean;
}

interface FeedRow extends Record<string, unknown> {
  top: number | string | null;
  swept: number | string | null;
  pruned: number | string | null;
  events: EventRow[] | string | null;
}

/** The feed's page after `query.since`, waiting up to `query.wait` seconds for one event. */
export async function readChanges(ctx: DomainContext, query: FeedQuery): Promise<FeedPage> {
  const deadline = Date.now() + query.wait * 1000;
  let since = query.since === "now" ? undefined : query.since;
  let fromNow = query.since === "now";
  for (;;) {
    let { page, swept } = await readOnce(ctx, query, since, fromNow);
    // Expiries this read announced are numbered at its commit, after its own read: once more,
    // so that a read after an expiry tells it (a second round trip only then).
    if (swept) ({ page } = await readOnce(ctx, query, since, fromNow));
    if (page.changes.length > 0 || Date.now() >= deadline) return page;
    // Nothing yet: go on from where the feed ends now.
    since = page.next_cursor;
    fromNow = false;
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
  }
}

async function readOnce(
  ctx: DomainContext,
  query: FeedQuery,
  since: string | undefined,
  fromNow: boolean,
): Promise<{ page: FeedPage; swept: boolean }> {
  const owner = ctx.userId;
  const after = since === undefined ? null : Number(since);
  // What the caller may see: every event of its own feed, or a grantee's share of the owner's.
  const scope: SQL[] = [sql`ev.user_id = ${owner}::uuid`, sql`ev.seq IS NOT NULL`];
  if (query.namespace !== undefined) scope.push(sql`ev.namespace = ${query.namespace}`);
  if (ctx.grant) {
    scope.push(grantedNamespace(ctx, sql`ev.namespace`));
    // Grants are the owner's business: a grantee learns of its own from GET
    // /v1/grants/received, and of no one else's.
    scope.push(sql`ev.kind NOT LIKE 'grant.%'`);
  }
  // A grantee's end of the feed is its last visible event: the owner's own end would count
  // the events of namespaces it was not granted (docs/changes.md, "Sharing").
  const visibleEnd = ctx.grant
    ? sql`(SELECT max(ev.seq) FROM memory_events ev WHERE ${sql.join(scope, sql` AND `)})`
    : sql`c.seq`;
  const wanted: SQL[] = [...scope];
  if (after !== null) wanted.push(sql`ev.seq > ${after}`);
  else if (fromNow) wanted.push(sql`false`);
  if (query.kinds && query.kinds.length > 0) {
    wanted.push(sql`ev.kind = ANY(${sql.param(query.kinds)}::text[])`);
  }
  const content = query.includeContent
    ? sql`, CASE WHEN m.namespace = ev.namespace THEN m.content END AS content`
    : sql``;
  const join = query.includeContent ? sql`LEFT JOIN memories m ON m.id = ev.memory_id` : sql``;
  const result = await ctx.db.execute<FeedRow>(sql`
    WITH expired AS (${announceExpiries(sql`m.user_id = ${owner}::uuid`)} RETURNING 1),
    pruned AS (
      DELETE FROM memory_events WHERE user_id = ${owner}::uuid AND seq IN (
        SELECT seq FROM memory_events
        WHERE user_id = ${owner}::uuid AND seq IS NOT NULL AND seq <= greatest(
          (SELECT max(seq) FROM memory_events WHERE user_id = ${owner}::uuid
             AND at < now() - make_interval(days => ${RETENTION_DAYS})),
          (SELECT seq - ${EVENT_CAP} FROM event_counters WHERE user_id = ${owner}::uuid))
        ORDER BY seq LIMIT ${PRUNE_BATCH})
      RETURNING seq
    ),
    marked AS (
      UPDATE event_counters SET pruned_through = (SELECT max(seq) FROM pruned)
      WHERE user_id = ${owner}::uuid AND pruned_through < (SELECT max(seq) FROM pruned)
      RETURNING 1
    )
    SELECT ${visibleEnd} AS top, c.pruned_through AS pruned,
      (SELECT count(*) FROM expired) AS swept, (SELECT count(*) FROM marked) AS marked,
      (SELECT coalesce(json_agg(e ORDER BY e.seq), '[]'::json) FROM (
        SELECT ev.id, ev.seq, ev.kind, ev.namespace, ev.memory_id, ev.created_by, ev.at, ev.data
          ${content}
        FROM memory_events ev ${join}
        WHERE ${sql.join(wanted, sql` AND `)}
        ORDER BY ev.seq LIMIT ${query.limit + 1}) e) AS events
    FROM (SELECT 1) one LEFT JOIN event_counters c ON c.user_id = ${owner}::uuid`);
  const row = result.rows[0];
  const top = Number(row?.top ?? 0);
  const pruned = Number(row?.pruned ?? 0);
  // (A grantee that sees no event at all is answered as by an owner with none.)
  if (after !== null && after < pruned && (!ctx.grant || row?.top != null)) {
    throw new ApiError(
      "GONE",
      `Cursor ${after} is older than the events kept (${RETENTION_DAYS} days, at most ${EVENT_CAP} a wallet): read the current state again (GET /v1/memories or /v1/export), then follow the feed from since=now`,
      { oldest_cursor: String(pruned), retention_days: RETENTION_DAYS },
    );
  }
  // A grantee's cursor is not checked against an end it may not know.
  if (after !== null && after > top && !ctx.grant) {
    throw new ApiError("VALIDATION_ERROR", `Cursor ${after} is past the feed's end (${top})`, {
      issues: [{ path: ["since"], message: `at most ${top}` }],
    });
  }
  const raw = row?.events ?? [];
  const rows = (typeof raw === "string" ? JSON.parse(raw) : raw) as EventRow[];
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit).map((r) => eventAnswer(r, query.includeContent));
  const last = page.at(-1)?.cursor;
  // Fewer than a page: every event up to `top` was read (this statement saw that end), so the
  // next read starts there, past any event the filters left out.
  const next = hasMore ? (last as string) : String(fromNow ? top : Math.max(top, after ?? 0));
  return {
    page: { changes: page, next_cursor: next, has_more: hasMore },
    swept: Number(row?.swept ?? 0) > 0,
  };
}

/**
 * The statement that tells the expiries that came due of the wallets `owners` selects (a
 * condition on `m`, the memories): an expiry writes nothing when it happens, so the feed's
 * read tells it, and the webhooks' minute catch-up for the wallets they follow. Once per
 * memory and expiry time, whoever tells it first (a unique index; others do nothing).
 */
export function announceExpiries(owners: SQL): SQL {
  return sql`INSERT INTO memory_events (user_id, kind, namespace, memory_id, created_by, data)
    SELECT m.user_id, 'memory.expired', m.namespace, m.id, m.created_by,
      jsonb_build_object('expires_at', extract(epoch FROM m.expires_at)::text)
    FROM memories m
    WHERE ${owners} AND m.deleted_at IS NULL AND m.expires_at IS NOT NULL
      AND m.expires_at <= now() AND m.expires_at > now() - make_interval(days => ${RETENTION_DAYS})
    ON CONFLICT (memory_id, (data->>'expires_at')) WHERE kind = 'memory.expired' DO NOTHING`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
