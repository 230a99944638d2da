/**
 * Whose memories a request works on, and through which grant. A request that names no owner
 * works on the caller's own memories; one that names an owner (`?owner=`, middleware/auth.ts)
 * works on that owner's, but only in the namespaces the owner granted the caller, and every
 * statement says so itself: `grantedNamespace` is a condition of the same SQL, never a check
 * made before it and remembered, so a revoked grant stops the very next statement, in every
 * isolate (docs/sharing.md).
 */
import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { memories, memoryGrants, type Permission } from "../../schema/tables";
import type { GrantUse } from "../context";
import { ApiError, notFound } from "../errors";

/** The memories a statement may touch: one user's, through a grant when `grant` is set. */
export interface Scope {
  /** The owner of the memories: the caller, or the owner a grantee named. */
  userId: string;
  grant?: GrantUse;
}

/**
 * True for a namespace (a column, or a value) the scope may touch: any of the owner's own, or
 * one granted to the grantee with the permission the operation needs (`write` also reads).
 */
export function grantedNamespace(
  scope: Scope,
  namespace: AnyColumn | SQL = memories.namespace,
): SQL {
  const { grant } = scope;
  if (!grant) return sql`true`;
  const write = grant.need === "write" ? sql`AND ${memoryGrants.permission} = 'write'` : sql``;
  // = ANY(ARRAY(…)), not IN (…): the granted namespaces are read once per statement (an
  // InitPlan), then tested like a parameter. As IN, Postgres made it a join and could start
  // from the grant, reading memories by namespace across every wallet (the distance bench's
  // shared recall: 18 ms of SQL against 5.5 ms plain, growing with the table).
  return sql`${namespace} = ANY(ARRAY(SELECT ${memoryGrants.namespace} FROM ${memoryGrants}
    WHERE ${memoryGrants.ownerId} = ${scope.userId}::uuid
      AND ${memoryGrants.grantee} = ${grant.grantee} ${write}))`;
}

/** The same scope, needing only `read` of its grant (how a refused write learns why). */
export function asReader(scope: Scope): Scope {
  return scope.grant ? { ...scope, grant: { ...scope.grant, need: "read" } } : scope;
}

/** True when the scope may write every one of `namespaces` (values, not a column). */
export function grantedNamespaces(scope: Scope, namespaces: string[]): SQL {
  const unique = [...new Set(namespaces)];
  return sql.join(
    unique.map((ns) => grantedNamespace(scope, sql`${ns}::text`)),
    sql` AND `,
  );
}

/**
 * The grantee's permission on each of `namespaces` of the owner, as one JSON object column
 * (`{namespace: permission}`), for a statement that reads it beside its own work.
 */
export function permissionsOf(scope: Scope & { grant: GrantUse }, namespaces: string[]): SQL {
  return sql`(SELECT coalesce(json_object_agg(${memoryGrants.namespace}, ${memoryGrants.permission}), '{}')
    FROM ${memoryGrants}
    WHERE ${memoryGrants.ownerId} = ${scope.userId}::uuid AND ${memoryGrants.grantee} = ${scope.grant.grantee}
      AND ${memoryGrants.namespace} = ANY(${sql.param([...new Set(namespaces)])}::text[]))`;
}

/**
 * Why a grantee may not write: 403 when its grant is read-only, else the 404 any missing
 * memory or namespace gets, whether or not the owner has one (nothing of the owner leaks).
 */
export function writeRefusal(permission: Permission | undefined, namespace: string): ApiError {
  return permission === "read"
    ? new ApiError("FORBIDDEN", `Your grant on namespace "${namespace}" is read-only`)
    : notFound();
}
