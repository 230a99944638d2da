/**
 * Grants: an owner gives another wallet `read` or `write` on one of its namespaces, lists
 * what it gave, and takes it back; a grantee lists what it was given (docs/sharing.md).
 * Revoking deletes the row, and every shared statement reads the rows itself (scope.ts), so a
 * revocation holds from the next statement on, in every isolate.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { memoryGrants, type Permission, users } from "../../schema/tables";
import type { DomainContext } from "../context";
import { ApiError, notFound } from "../errors";
import { issuesError } from "../lib/validate";

export interface GrantJson {
  owner: string;
  grantee: string;
  namespace: string;
  permission: Permission;
  created_at: string;
  updated_at: string;
}

type GrantRow = typeof memoryGrants.$inferSelect;

/** Every column of a grant row, for a RETURNING that adds one of its own. */
const grantColumns = {
  ownerId: memoryGrants.ownerId,
  grantee: memoryGrants.grantee,
  namespace: memoryGrants.namespace,
  permission: memoryGrants.permission,
  createdAt: memoryGrants.createdAt,
  updatedAt: memoryGrants.updatedAt,
};

const toGrant = (owner: string, r: GrantRow): GrantJson => ({
  owner,
  grantee: r.grantee,
  namespace: r.namespace,
  permission: r.permission,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

export interface GrantInput {
  /** Lower-case wallet address. */
  grantee: string;
  namespace: string;
  permission: Permission;
}

/**
 * Grants (or changes) `permission` on the caller's `namespace` to `grantee`: one statement;
 * `created` says whether the grant is new. The namespace need not hold memories yet.
 */
export async function grantAccess(
  ctx: DomainContext,
  input: GrantInput,
): Promise<{ grant: GrantJson; created: boolean }> {
  const owner = ctx.wallet.toLowerCase();
  if (input.grantee === owner) {
    throw issuesError([{ path: ["grantee"], message: "is your own wallet; you need no grant" }]);
  }
  const [row] = await ctx.db
    .insert(memoryGrants)
    .values({ ownerId: ctx.userId, ...input })
    .onConflictDoUpdate({
      target: [memoryGrants.ownerId, memoryGrants.grantee, memoryGrants.namespace],
      set: { permission: input.permission, updatedAt: sql`now()` },
    })
    .returning({ ...grantColumns, created: sql<boolean>`xmax = 0` });
  if (!row) throw new ApiError("INTERNAL_ERROR", "The grant was not written");
  const { created, ...grant } = row;
  return { grant: toGrant(owner, grant), created };
}

/** The caller's grants, of one namespace or all, by namespace then grantee. */
export async function listGrants(ctx: DomainContext, namespace?: string): Promise<GrantJson[]> {
  const rows = await ctx.db
    .select()
    .from(memoryGrants)
    .where(
      and(
        eq(memoryGrants.ownerId, ctx.userId),
        namespace === undefined ? undefined : eq(memoryGrants.namespace, namespace),
      ),
    )
    .orderBy(asc(memoryGrants.namespace), asc(memoryGrants.grantee));
  const owner = ctx.wallet.toLowerCase();
  return rows.map((r) => toGrant(owner, r));
}

/** Takes a grant back: 404 when the caller gave no such grant. */
export async function revokeGrant(
  ctx: DomainContext,
  grantee: string,
  namespace: string,
): Promise<GrantJson> {
  const [row] = await ctx.db
    .delete(memoryGrants)
    .where(
      and(
        eq(memoryGrants.ownerId, ctx.userId),
        eq(memoryGrants.grantee, grantee),
        eq(memoryGrants.namespace, namespace),
      ),
    )
    .returning();
  if (!row) throw notFound("Grant");
  return toGrant(ctx.wallet.toLowerCase(), row);
}

/** What other wallets granted the caller, by owner then namespace. */
export async function receivedGrants(ctx: DomainContext): Promise<GrantJson[]> {
  const rows = await ctx.db
    .select({ grant: memoryGrants, owner: users.wallet })
    .from(memoryGrants)
    .innerJoin(users, eq(users.id, memoryGrants.ownerId))
    .where(eq(memoryGrants.grantee, ctx.wallet.toLowerCase()))
    .orderBy(asc(users.wallet), asc(memoryGrants.namespace));
  return rows.map((r) => toGrant(r.owner, r.grant));
}
