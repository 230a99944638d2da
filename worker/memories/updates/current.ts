/**
 * Current and replaced memories (docs/knowledge-updates.md). A memory is replaced when a live
 * memory (not deleted, not expired) has a `supersedes` relation to it; otherwise it is current.
 * Nothing is stored about it but the relation: deleting the relation, or the memory that
 * replaced it, makes the old memory current again in the very next statement.
 *
 * At a time `as_of`, a memory is current when it had occurred by then (`occurred_at`) and no
 * live memory that had occurred by then supersedes it: "where did I live in 2023" reaches the
 * fact that was current in 2023.
 *
 * Every read that answers with current memories (recall, search, context, list, suggested,
 * the MCP tools) adds `isCurrent`; every memory answer carries `supersedes` and
 * `superseded_by` (replacementColumns). Both are subqueries of the read's own statement, so
 * neither costs a round trip; relations_supersedes_target_idx answers them.
 */
import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { grantedNamespace, type Scope } from "../../sharing/scope";
import { isLiveAs } from "../rows";

/** What a read asks of replacement: whether to keep replaced memories, and at which time. */
export interface Currency {
  /** Answer replaced memories too (marked by `superseded_by`). */
  includeSuperseded?: boolean;
  /** What was current at this time (default: now). */
  asOf?: Date;
}

/**
 * True for a memory (its `id` and `occurred_at` columns, of the outer query) that the
 * currency keeps: current now, current at `asOf`, or any with `includeSuperseded`.
 */
export function isCurrent(
  id: AnyColumn | SQL,
  occurredAt: AnyColumn | SQL,
  currency: Currency = {},
): SQL {
  const { asOf } = currency;
  if (currency.includeSuperseded) {
    return asOf ? sql`${occurredAt} <= ${asOf.toISOString()}::timestamptz` : sql`true`;
  }
  const replaced = sql`EXISTS (SELECT 1 FROM relations cr JOIN memories cs ON cs.id = cr.source_id
    WHERE cr.target_id = ${id} AND cr.relation_type = 'supersedes' AND ${isLiveAs("cs")}
      ${asOf ? sql`AND cs.occurred_at <= ${asOf.toISOString()}::timestamptz` : sql``})`;
  return asOf
    ? sql`(${occurredAt} <= ${asOf.toISOString()}::timestamptz AND NOT ${replaced})`
    : sql`NOT ${replaced}`;
}

/**
 * The two answer fields of a memory (its `id`, of the outer query) as columns:
 * `supersedes`, the ids of the memories it replaces (text[], oldest relation first), and
 * `superseded_by`, the live memory that replaces it (the latest to occur, when several do),
 * or null. Through a grant, only memories the grantee may read are named.
 */
export function replacementColumns(id: AnyColumn | SQL, scope: Scope): SQL {
  return sql`${supersedesOf(id, scope)} AS supersedes, ${supersededByOf(id, scope)} AS superseded_by`;
}

/** The same two fields for a drizzle select. */
export function replacementSelect(id: AnyColumn | SQL, scope: Scope) {
  return {
    supersedes: sql<unknown>`${supersedesOf(id, scope)}`,
    superseded_by: sql<unknown>`${supersededByOf(id, scope)}`,
  };
}

const readable = (scope: Scope, alias: string) =>
  scope.grant ? sql`AND ${grantedNamespace(scope, sql.raw(`${alias}.namespace`))}` : sql``;

function supersedesOf(id: AnyColumn | SQL, scope: Scope): SQL {
  return sql`ARRAY(SELECT rr.target_id::text FROM relations rr JOIN memories rt ON rt.id = rr.target_id
      WHERE rr.source_id = ${id} AND rr.relation_type = 'supersedes' AND rt.deleted_at IS NULL
        ${readable(scope, "rt")}
      ORDER BY rr.created_at, rr.target_id)`;
}

function supersededByOf(id: AnyColumn | SQL, scope: Scope): SQL {
  return sql`(SELECT rr.source_id::text FROM relations rr JOIN memories rs ON rs.id = rr.source_id
      WHERE rr.target_id = ${id} AND rr.relation_type = 'supersedes' AND ${isLiveAs("rs")}
        ${readable(scope, "rs")}
      ORDER BY rs.occurred_at DESC, rs.created_at DESC, rs.id DESC LIMIT 1)`;
}

/** The answer fields from a row that has replacementColumns. */
export function replacementOf(row: { supersedes?: unknown; superseded_by?: unknown }): {
  supersedes: string[];
  superseded_by: string | null;
} {
  const supersedes = row.supersedes;
  return {
    supersedes: Array.isArray(supersedes) ? supersedes.map(String) : parseTextArray(supersedes),
    superseded_by: typeof row.superseded_by === "string" ? row.superseded_by : null,
  };
}

/** A text[] some drivers hand over unparsed ("{a,b}"); uuids need no unquoting. */
function parseTextArray(value: unknown): string[] {
  if (typeof value !== "string" || value.length < 2) return [];
  const inner = value.slice(1, -1);
  return inner === "" ? [] : inner.split(",").map((s) => s.replace(/^"|"$/g, ""));
}

/** The same as MemoryRecord's fields. */
export function replacementRecord(row: { supersedes?: unknown; superseded_by?: unknown }): {
  supersedes: string[];
  supersededBy: string | null;
} {
  const { supersedes, superseded_by } = replacementOf(row);
  return { supersedes, supersededBy: superseded_by };
}
