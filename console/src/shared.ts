/**
 * Whose memories the console shows: the wallet's own, or one namespace another wallet shared
 * with it (a received grant, chosen on the sharing screen). main.tsx holds the choice and
 * hands its owner to the Api, which adds it to the calls a grant opens (shareable.ts). Kept in
 * sessionStorage beside the session, so a reload stays where it was and signing out
 * (clearSession) forgets it.
 */
import type { Grant, Permission } from "./api";
import { hasStrings, tabValue } from "./tab-storage";

export interface SharedNamespace {
  /** The wallet that shared it, lower-case, as the API names it. */
  owner: string;
  namespace: string;
  /** The grant's permission when it was chosen; the API checks the grant on every call. */
  permission: Permission;
}

const stored = tabValue("shared", (json): SharedNamespace | null => {
  if (!hasStrings(json, ["owner", "namespace"])) return null;
  const { owner, namespace, permission } = json;
  return permission === "read" || permission === "write" ? { owner, namespace, permission } : null;
});

export const loadShared = (): SharedNamespace | null => stored.load();

/** Keeps the choice for this tab; null goes back to the wallet's own memories. */
export const saveShared = (shared: SharedNamespace | null): void => stored.save(shared);

export const sharedOf = (grant: Grant): SharedNamespace => ({
  owner: grant.owner,
  namespace: grant.namespace,
  permission: grant.permission,
});

/** True when `shared` is the namespace of `grant` (whatever its permission now). */
export const isSharedBy = (shared: SharedNamespace | null, grant: Grant): boolean =>
  shared !== null && shared.owner === grant.owner && shared.namespace === grant.namespace;

/** Whether the shown memories may be changed: always one's own, a shared one with `write`. */
export const canWrite = (shared: SharedNamespace | null): boolean =>
  shared === null || shared.permission === "write";
