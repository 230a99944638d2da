/**
 * Namespace versions (schema/tables.ts, namespace_versions): how writes that create memories
 * in a wallet's namespace exclude each other, so two stores of the same text never both
 * create a record.
 *
 * A store reads the versions of its namespaces in the same statement as its duplicate probe
 * (one snapshot), decides what to merge, and writes in one statement that first raises each
 * version from the one it read (claimVersions). Postgres re-reads a row updated concurrently
 * before testing the condition, so a claim fails if any writer committed to the namespace since
 * the probe, and waits for one still in flight. A failed claim writes nothing: the store then
 * runs under lockNamespaces, which holds the rows until its transaction ends.
 *
 * Before this, each store held an advisory lock through BEGIN, probe, write and COMMIT: five
 * round trips to the database instead of two (docs/scaling.md, "Distance").
 */
import { type SQL, sql } from "drizzle-orm";
import { namespaceVersions } from "../../schema/tables";
import type { DbOrTx } from "../db/client";

/** Each namespace's version as read (0: no row yet). */
export type Versions = Record<string, number>;

/** A JSON object namespace → version of the wallet's `namespaces`: one scalar subquery. */
export function readVersions(userId: string, namespaces: string[]): SQL {
  return sql`(SELECT coalesce(json_object_agg(v.namespace, v.version), '{}')
    FROM ${namespaceVersions} v
    WHERE v.user_id = ${userId} AND v.namespace = ANY(${sql.param(namespaces)}::text[]))`;
}

/**
 * An INSERT … ON CONFLICT that raises each namespace's version by one, in namespace order (two
 * claims of the same namespaces lock their rows in the same order), returning a row per
 * namespace raised. With `seen`, only from the version read: a namespace another writer
 * raised meanwhile returns no row. The conflicting row stays locked either way.
 */
export function claimVersions(userId: string, namespaces: string[], seen?: Versions): SQL {
  const sorted = [...new Set(namespaces)].sort();
  const next = sorted.map((ns) => (seen?.[ns] ?? 0) + 1);
  const guard = seen ? sql`WHERE ${namespaceVersions}.version = excluded.version - 1` : sql``;
  return sql`INSERT INTO ${namespaceVersions} (user_id, namespace, version)
    SELECT ${userId}::uuid, k.ns, k.next
    FROM unnest(${sql.param(sorted)}::text[], ${sql.param(next)}::int[]) AS k(ns, next)
    ORDER BY k.ns
    ON CONFLICT (user_id, namespace) DO UPDATE SET version = ${
      seen ? sql`excluded.version` : sql`${namespaceVersions}.version + 1`
    }
    ${guard}
    RETURNING namespace`;
}

/**
 * Locks the wallet's namespaces until the transaction ends (raising their versions, so a
 * store that probed before fails its claim). For writes that cannot be one statement: the
 * fallback of a failed claim, and Markdown import.
 */
export async function lockNamespaces(
  tx: DbOrTx,
  userId: string,
  namespaces: string[],
): Promise<void> {
  await tx.execute(claimVersions(userId, namespaces));
}
