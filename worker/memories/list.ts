/** Reading memories: one, a filtered page, counts and tag tallies. */
import {
  and,
  arrayContains,
  arrayOverlaps,
  eq,
  gt,
  gte,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { notFound } from "../errors";
import { inputIssues } from "../lib/validate";
import { grantedNamespace, type Scope } from "../sharing/scope";
import * as f from "./fields";
import { foldLiveCounts, liveTotalColumns, liveTotalOf } from "./live-count";
import { liveMemory, memoryAnswerColumns, recordFromRow, toMemory, undeletedMemory } from "./rows";
import { isCurrent } from "./updates/current";

/**
 * `?metadata=` is JSON inside a query string, so the body's checks (middleware/body.ts) apply
 * here: storable text, and no deeper than metadata itself may be (deeper could never match).
 */
const metadataFilter = z.string().transform((s, ctx) => {
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {}
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    ctx.addIssue({ code: "custom", message: "must be a JSON object" });
    return z.NEVER;
  }
  const issues = inputIssues(value, f.LIMITS.metadataDepth);
  for (const { path, message } of issues)
    ctx.addIssue({ code: "custom", message, path: [...path] });
  return issues.length > 0 ? z.NEVER : (value as Record<string, unknown>);
});

/** Filters shared by list, count and export (query-string form). */
export const memoryFilters = z.object({
  namespace: f.scope.optional(),
  session_id: f.scope.optional(),
  agent_id: f.scope.optional(),
  memory_type: f.memoryType.optional(),
  tags: f.csv.optional(),
  pinned: f.queryBool.optional(),
  immutable: f.queryBool.optional(),
  after: f.isoDate.optional(),
  since: f.isoDate.optional(),
  before: f.isoDate.optional(),
  until: f.isoDate.optional(),
  metadata: metadataFilter.optional(),
  // Knowledge updates (docs/knowledge-updates.md): replaced memories too, and what was
  // current at a time.
  include_superseded: f.queryBool.optional(),
  as_of: f.isoDate.optional(),
});
export type MemoryFilters = z.output<typeof memoryFilters>;

/**
 * Which of the caller's rows the filters start from: the live ones (`live`, every read), also
 * the soft-deleted ones (`unexpired`, an export that asks for them), or also the expired ones
 * (`undeleted`: only to size a scope, where an index-only count matters more than expiry).
 */
export type FilterBase = "live" | "unexpired" | "undeleted";

/**
 * `after`/`since` and `before`/`until` bound `created_at` (inclusive), as ISO 8601 strings.
 * `tags` matches memories having any of the tags; `metadata` is JSON containment. Only current
 * memories pass (updates/current.ts) unless `include_superseded`; `as_of` asks what was
 * current then. Sizing a scope (`undeleted`) counts every row.
 */
export function filterConditions(scope: Scope, q: MemoryFilters, base: FilterBase = "live"): SQL[] {
  const owner = and(eq(memories.userId, scope.userId), grantedNamespace(scope));
  const conds: SQL[] = [
    base === "live"
      ? liveMemory(scope)
      : base === "unexpired"
        ? (and(owner, or(isNull(memories.expiresAt), gt(memories.expiresAt, sql`now()`))) as SQL)
        : undeletedMemory(scope),
  ];
  if (base !== "undeleted") {
    conds.push(
      isCurrent(memories.id, memories.occurredAt, {
        includeSuperseded: q.include_superseded,
        asOf: q.as_of,
      }),
    );
  }
  if (q.namespace !== undefined) conds.push(eq(memories.namespace, q.namespace));
  if (q.session_id !== undefined) conds.push(eq(memories.sessionId, q.session_id));
  if (q.agent_id !== undefined) conds.push(eq(memories.agentId, q.agent_id));
  if (q.memory_type !== undefined) conds.push(eq(memories.memoryType, q.memory_type));
  if (q.tags && q.tags.length > 0) conds.push(arrayOverlaps(memories.tags, q.tags));
  if (q.pinned !== undefined) conds.push(eq(memories.pinned, q.pinned));
  if (q.immutable !== undefined) conds.push(eq(memories.immutable, q.immutable));
  const after = q.after ?? q.since;
  const before = q.before ?? q.until;
  if (after) conds.push(gte(memories.createdAt, after));
  // Timestamps are stored to the microsecond but shown to the millisecond: `before` set to a
  // memory's own created_at must still include it, so it covers that whole millisecond. The
  // last millisecond of year 9999 bounds nothing (and one more is a year Postgres refuses).
  if (before && before.getTime() < f.DATE_RANGE.max) {
    conds.push(lt(memories.createdAt, new Date(before.getTime() + 1)));
  }
  if (q.metadata) {
    // Clients see `metadata.tags`, but tags live in their own column (stripped from the
    // metadata jsonb), so a `tags` key of the filter is matched against that column.
    const { tags: metaTags, ...rest } = q.metadata;
    if (metaTags !== undefined) {
      const valid = Array.isArray(metaTags) && metaTags.every((t) => typeof t === "string");
      if (!valid) conds.push(sql`false`);
      else if (metaTags.length > 0) conds.push(arrayContains(memories.tags, metaTags));
    }
    conds.push(sql`${memories.metadata} @> ${JSON.stringify(rest)}::jsonb`);
  }
  return conds;
}

const SORTABLE = {
  created_at: memories.createdAt,
  updated_at: memories.updatedAt,
  accessed_at: memories.accessedAt,
  importance: memories.importance,
  access_count: memories.accessCount,
} as const;

export const listQuery = memoryFilters.extend({
  limit: f.queryLimit(100, 20),
  offset: f.queryInt(0, 1_000_000_000, 0),
  sort: z.enum(Object.keys(SORTABLE) as [keyof typeof SORTABLE]).optional(),
  order: z.enum(["asc", "desc"]).optional(),
});
export type ListQuery = z.output<typeof listQuery>;

/**
 * How many of the caller's memories match the filters, as the columns `total` and `pieces`:
 * with no filter but the namespace, from the kept counts (live-count.ts) instead of counting
 * the rows. A grantee's total is always counted: the kept counts know nothing of grants, and
 * would tell it how many memories the owner keeps where it may not look.
 */
function matchingColumns(ctx: DomainContext, q: MemoryFilters, where: SQL | undefined): SQL {
  const { namespace, include_superseded, ...others } = q;
  if (!ctx.grant && Object.values(others).every((v) => v === undefined)) {
    return liveTotalColumns(ctx.userId, namespace, include_superseded === true);
  }
  return sql`(SELECT count(*) FROM ${memories} WHERE ${where})::int AS total, 0 AS pieces`;
}

/** Folds the wallet's counts after the response when the total said they piled up. */
function foldIfMany(ctx: DomainContext, row: Record<string, unknown> | undefined): number {
  const { total, foldable } = liveTotalOf(row);
  if (foldable) ctx.afterwards(`counts:${ctx.userId}`, (db) => foldLiveCounts(db, ctx.userId));
  return total;
}

/** A page and the total in one statement (one round trip; an empty page still has its total). */
export async function listMemories(ctx: DomainContext, q: ListQuery) {
  const where = and(...filterConditions(ctx, q));
  const column = sql.raw(`"${SORTABLE[q.sort ?? "created_at"].name}"`);
  const direction = sql.raw(q.order === "asc" ? "ASC" : "DESC");
  const { limit, offset, sort: _sort, order: _order, ...filters } = q;
  const result = await ctx.db.execute<Record<string, unknown>>(sql`
    SELECT t.total, t.pieces, r.* FROM (SELECT ${matchingColumns(ctx, filters, where)}) t
    LEFT JOIN (
      SELECT ${memoryAnswerColumns(ctx)} FROM ${memories} WHERE ${where}
      ORDER BY ${column} ${direction}, id ${direction}
      LIMIT ${limit} OFFSET ${offset}
    ) r ON true
    ORDER BY r.${column} ${direction}, r.id ${direction}`);
  const total = foldIfMany(ctx, result.rows[0]);
  const page = result.rows.filter((r) => r.id).map((r) => toMemory(recordFromRow(r)));
  return { memories: page, total, limit, offset };
}

/** A live memory by id, current or replaced (updates/current.ts). */
export async function getMemory(ctx: DomainContext, id: string) {
  const result = await ctx.db.execute<Record<string, unknown>>(sql`
    SELECT ${memoryAnswerColumns(ctx)} FROM ${memories}
    WHERE ${and(eq(memories.id, id), liveMemory(ctx))}`);
  const row = result.rows[0];
  if (!row) throw notFound();
  return toMemory(recordFromRow(row));
}

/** Throws 404 unless the id is one of the caller's live memories. */
export async function assertLive(ctx: DomainContext, id: string): Promise<void> {
  const [row] = await ctx.db
    .select({ id: memories.id })
    .from(memories)
    .where(and(eq(memories.id, id), liveMemory(ctx)));
  if (!row) throw notFound();
}

export async function countMemories(ctx: DomainContext, q: MemoryFilters): Promise<number> {
  const result = await ctx.db.execute<Record<string, unknown>>(
    sql`SELECT ${matchingColumns(ctx, q, and(...filterConditions(ctx, q)))}`,
  );
  return foldIfMany(ctx, result.rows[0]);
}

export async function tagCounts(ctx: DomainContext, namespace?: string) {
  const ns = namespace === undefined ? sql`` : sql`AND namespace = ${namespace}`;
  const result = await ctx.db.execute<{ tag: string; count: number }>(sql`
    SELECT tag, count(*)::int AS count
    FROM memories, unnest(tags) AS tag
    WHERE ${liveMemory(ctx)} ${ns}
    GROUP BY tag ORDER BY count DESC, tag ASC`);
  return result.rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
}
