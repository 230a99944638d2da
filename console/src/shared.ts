/**
 * Whose memories the console shows: the wallet's own, or one namespace another wallet shared
 * with it (a received grant, chosen on the sharing screen). main.tsx holds the choice and
 * hands its owner to the Api, which adds it to the calls a grant opens (shareable.ts). Kept in
 * sessionStorage beside the session, so a reload stays where it was and signing out
 * (clearSession) forgets it.
 */
import type { Grant, Permission } from "./api";

export interface SharedNamespace {
  /** The wallet that shared it, lower-case, as the API names it. */
  owner: string;
  namespace: string;
  /** The grant's permission when it was chosen; the API checks the grant on every call. */
  permission: Permission;
}

const STORAGE_KEY = "memory-console.shared";

function isShared(value: unknown): value is SharedNamespace {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.owner === "string" &&
    typeof v.namespace === "string" &&
    (v.permission === "read" || v.permission === "write")
  );
}

export function loadShared(): SharedNamespace | null {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null");
    return isShared(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Keeps the choice for this tab; null goes back to the wallet's own memories. */
export function saveShared(shared: SharedNamespace | null): void {
  if (shared) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(shared));
  else sessionStorage.removeItem(STORAGE_KEY);
}

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
