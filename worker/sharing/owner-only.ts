/**
 * Fields only the owner of a memory sets: a grantee may not pin, unpin, freeze or unfreeze
 * (as the pin routes are the owner's), on store, batch store, PATCH or a batch update item.
 * The refusal depends on the request alone, so it is answered the same whoever the owner is
 * and whatever it holds, before anything is read, embedded or written.
 */
import type { Caller } from "../context";
import { ApiError } from "../errors";

export const OWNER_ONLY = ["pinned", "immutable"] as const;

/** Through a grant, the 403 of a write that sets any of `sent` (OWNER_ONLY fields). */
export function ownerOnlyRefusal(
  caller: Pick<Caller, "grant">,
  sent: readonly string[],
): ApiError | undefined {
  if (!caller.grant || sent.length === 0) return undefined;
  return new ApiError(
    "FORBIDDEN",
    `Only the owner may change ${sent.join(" or ")}: a grant does not let you`,
  );
}
