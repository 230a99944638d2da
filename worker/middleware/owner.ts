/**
 * `?owner=`: the owner whose memories a grantee's request works on (docs/sharing.md). The
 * grant itself is not checked here but in every statement the request runs (sharing/
 * scope.ts), so nothing is remembered between requests and a revocation holds at once.
 */
import type { Permission } from "../../schema/tables";
import { ApiError } from "../errors";
import { issuesError } from "../lib/validate";
import { OWNER_PARAM, WalletAddress } from "../sharing/owner-param";
import type { AppContext } from "./app-env";

export interface NamedOwner {
  /** The owner's wallet, lower-case. */
  wallet: string;
  /** What the operation needs of the caller's grant. */
  need: Permission;
}

/**
 * The owner a request names, if it is another wallet than the caller's: a 422 for a value that
 * is not a wallet address, a 403 on an operation a grantee may not call. Absent, or the
 * caller's own wallet: undefined, and the request is the caller's own, exactly as without it.
 */
export function namedOwner(c: AppContext, caller: string): NamedOwner | undefined {
  const raw = c.req.query(OWNER_PARAM);
  const operation = c.get("operation");
  // An unknown path is the 404 it always was, owner or not.
  if (raw === undefined || !operation) return undefined;
  const parsed = WalletAddress.safeParse(raw);
  if (!parsed.success) {
    throw issuesError(parsed.error.issues.map((i) => ({ ...i, path: [OWNER_PARAM] })));
  }
  if (parsed.data === caller.toLowerCase()) return undefined;
  const need = operation.shared;
  if (!need) {
    throw new ApiError(
      "FORBIDDEN",
      `${c.req.method} ${c.req.path} works on your own memories only; \`${OWNER_PARAM}\` is for the operations a grant opens (docs/sharing.md)`,
    );
  }
  return { wallet: parsed.data, need };
}
