/**
 * A grantee's store may write only namespaces its grants say `write` for: checked before the
 * embedding (a refused call's free call is given back, so an embedding made first would be
 * free work), again in the duplicate probe, and once more in the write statement itself
 * (memories/store.ts), so that a grant revoked at any point writes nothing.
 */
import { sql } from "drizzle-orm";
import type { Permission } from "../../schema/tables";
import type { DomainContext } from "../context";
import { permissionsOf, writeRefusal } from "./scope";

/** A grantee's permission on each namespace of its batch (absent: no grant there). */
export type Permissions = Record<string, Permission | undefined>;

/** Throws the refusal of the first namespace a grantee may not write. */
export function refuseUnwritable(permissions: Permissions, namespaces: string[]): void {
  for (const ns of namespaces) {
    if (permissions[ns] !== "write") throw writeRefusal(permissions[ns], ns);
  }
}

/**
 * Through a grant, one statement: throws unless the grant lets the caller write every one of
 * `namespaces`. The owner's own store needs no check, and costs none.
 */
export async function assertWritable(ctx: DomainContext, namespaces: string[]): Promise<void> {
  const { grant } = ctx;
  if (!grant) return;
  const found = await ctx.db.execute<{ permissions: Permissions }>(
    sql`SELECT ${permissionsOf({ userId: ctx.userId, grant }, namespaces)} AS permissions`,
  );
  refuseUnwritable(found.rows[0]?.permissions ?? {}, namespaces);
}
