/**
 * `?owner=`: the owner whose memories a grantee's request works on (docs/sharing.md). The
 * grant itself is not checked here but in every statement the request runs (sharing/
 * scope.ts), so nothing is remembered between requests and a revocation holds at once.
 */
import type { Permission } from "../../schema/tables";
import { ApiError } from "../errors";
import { issuesError } from "../lib/validate";
import { withoutOwnerId } from "../sharing/answer";
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
 * A caller without a wallet (`undefined`, on a public operation) is never the named owner.
 */
export function namedOwner(
  c: AppContext,
  caller: string | undefined,
  refusal = `${c.req.method} ${c.req.path} works on your own memories only; \`${OWNER_PARAM}\` is for the operations a grant opens (docs/sharing.md)`,
): NamedOwner | undefined {
  const raw = c.req.query(OWNER_PARAM);
  const operation = c.get("operation");
  // An unknown path is the 404 it always was, owner or not.
  if (raw === undefined || !operation) return undefined;
  const parsed = WalletAddress.safeParse(raw);
  if (!parsed.success) {
    throw issuesError(parsed.error.issues.map((i) => ({ ...i, path: [OWNER_PARAM] })));
  }
  if (parsed.data === caller?.toLowerCase()) return undefined;
  const need = operation.shared;
  if (!need) throw new ApiError("FORBIDDEN", refusal);
  return { wallet: parsed.data, need };
}

/**
 * `handler` answering through a grant without the owner's internal user id: every JSON body
 * it gives is passed through withoutOwnerId (sharing/answer.ts) when the request names an
 * owner other than the caller. Done here, where every shared operation's answer is made, so
 * that no operation (PATCH and the batch writes included, nor one added later) can forget it;
 * and on the body before it is serialised, so an export of 10,000 memories is not parsed again.
 * The owner's own answers are untouched.
 */
export function withoutOwnerIds(
  handler: (c: AppContext) => Response | Promise<Response>,
): (c: AppContext) => Response | Promise<Response> {
  return (c) => {
    const { grant, userId } = c.get("caller");
    if (!grant) return handler(c);
    const json = c.json as (body: unknown, ...rest: unknown[]) => Response;
    c.json = ((body: unknown, ...rest: unknown[]) =>
      json(withoutOwnerId(body, userId), ...rest)) as typeof c.json;
    return handler(c);
  };
}
