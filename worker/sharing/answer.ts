/**
 * What an answer through a grant may not show: the owner's internal user id. Memory objects
 * carry it as `user_id` (the spec's field, which the owner's own clients read); a grantee
 * knows the owner by its wallet, which it named itself, and the id would only give it a key
 * the service uses internally (docs/sharing.md). So in a shared answer the field is left out,
 * as the contract allows (`user_id` is optional in the Memory schema for this reason).
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * `body` without any `user_id` property holding `ownerId`, at any depth: the memory objects of
 * every shared operation (get, list, search, export, store, PATCH, batch) wherever they sit.
 * Only the owner's id is removed, so a `user_id` a client put in a memory's metadata stays,
 * unless it is that very id. A new value; `body` is not changed. Dates and other non-plain
 * objects are kept as they are (JSON.stringify renders them).
 */
export function withoutOwnerId<T>(body: T, ownerId: string): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === "user_id" && item === ownerId) continue;
      out[key] = walk(item);
    }
    return out;
  };
  return walk(body) as T;
}
