/**
 * One declaration per operation: method, path, request and every response (zod, through
 * @hono/zod-openapi), plus how it is guarded: auth kind, price class, rate-limit bucket and
 * the public clients' aliases. The router, the OpenAPI document, the middleware (auth,
 * metering, payment) and the contract tests all read these declarations; nothing else says
 * which path costs what.
 */
import { createRoute, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { DomainContext } from "../context";
import { PRICES } from "../meter/prices";
import { type AppContext, type AppEnv, domain } from "../middleware/app-env";
import { charged } from "../middleware/charge";
import type { OperationMeta } from "../middleware/operation-meta";
import { withoutOwnerIds } from "../middleware/owner";
import { OwnerQuery } from "../sharing/owner-param";
import { ERRORS, paidConflict } from "./schemas/error";
import { Uuid } from "./schemas/memory";
import { IdParam } from "./schemas/params";

type Method = "get" | "post" | "patch" | "delete";

/** Another method and path the public clients use for the same operation (clients.md). */
export interface Alias {
  method: Method;
  path: string;
}

export interface OperationSpec extends Omit<OperationMeta, "operationId"> {
  aliases?: Alias[];
}

/** The handler of a declared route: its context knows the validated request's types. */
export type OperationHandler<R extends RouteConfig> = (
  c: Parameters<RouteHandler<R, AppEnv>>[0],
) => Response | Promise<Response>;

export interface Operation extends OperationMeta {
  /** The declared route first, then one per alias; all share the handler. */
  routes: RouteConfig[];
  handler: OperationHandler<RouteConfig>;
}

/** A JSON response of a declared shape. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/**
 * Declares an operation. `config` is @hono/zod-openapi's route config (operationId required)
 * plus the guard fields; the error responses every operation of its kind can give are added
 * here, so each declaration lists only its success and its own errors (404, 409).
 */
export function operation<const R extends RouteConfig & { operationId: string }>(
  config: R & OperationSpec,
  handler: OperationHandler<R>,
): Operation {
  const { auth, price, units, priceIf, bucket, shared, aliases = [], ...given } = config;
  // A grantee names the owner with `?owner=` on every operation it may call (docs/sharing.md).
  const route = shared ? { ...given, request: withOwnerParam(given.request) } : given;
  const hasInput = Boolean(route.request?.params || route.request?.query || route.request?.body);
  const responses: RouteConfig["responses"] = {
    ...route.responses,
    // 403: `?owner=` on an operation no grant opens, or a write through a read-only grant.
    ...(auth === "wallet" ? { 401: ERRORS[401], 403: ERRORS[403], 503: ERRORS[503] } : {}),
    ...(price
      ? {
          402: ERRORS[402],
          409: paidConflict(route.responses[409] as { description: string } | undefined),
          502: ERRORS[502],
        }
      : {}),
    ...(route.request?.body ? { 413: ERRORS[413] } : {}),
    ...(hasInput ? { 422: ERRORS[422] } : {}),
    // Through `owner`, a write where no grant reaches is the 404 of a missing memory.
    ...(shared === "write" ? { 404: ERRORS[404] } : {}),
    429: ERRORS[429],
  };
  const declared: RouteConfig = {
    ...route,
    // Every JSON body is validated, even one sent without a JSON Content-Type (the input
    // guard has already set it), so defaults apply however a client sends it.
    ...(route.request?.body
      ? { request: { ...route.request, body: { ...route.request.body, required: true } } }
      : {}),
    responses,
    security:
      auth === "wallet"
        ? [
            { walletAuth: [] },
            { bearerAuth: [] },
            { signInWithX: [] },
            ...(price ? [{ x402Payment: [] }] : []),
          ]
        : [],
    "x-auth": auth,
    ...(price ? { "x-price-usd": PRICES[price].usd } : {}),
    ...(units ? { "x-price-per": units.per } : {}),
    ...(priceIf ? { "x-price-if": { usd: PRICES[priceIf.price].usd, when: priceIf.when } } : {}),
    ...(bucket ? { "x-rate-limit-bucket": bucket } : {}),
    ...(shared ? { "x-shared": shared } : {}),
  };
  const aliasRoutes = aliases.map((a) => ({
    ...declared,
    method: a.method,
    path: a.path,
    operationId: `${route.operationId}__${a.method}${a.path.replace(/[^a-zA-Z0-9]+/g, "_")}`,
    summary: `${route.summary ?? route.operationId} (alias)`,
    description: `The public clients' path for \`${route.method.toUpperCase()} ${route.path}\`: the same operation, price and answer.`,
    "x-alias-of": route.operationId,
  }));
  const own = handler as unknown as (c: AppContext) => Response | Promise<Response>;
  // Through a grant, an answer shows nothing of the owner's internal id (docs/sharing.md).
  const serve = shared ? withoutOwnerIds(own) : own;
  return {
    operationId: route.operationId,
    auth,
    price,
    units,
    ...(priceIf ? { priceIf } : {}),
    bucket,
    ...(shared ? { shared } : {}),
    routes: [createRoute(declared), ...aliasRoutes.map((r) => createRoute(r))],
    // A paid operation's handler runs behind its charge point: after validation, before any
    // paid work (middleware/charge.ts).
    handler: (price ? charged({ units, priceIf }, serve) : serve) as OperationHandler<RouteConfig>,
  };
}

/**
 * A request with the `owner` query parameter added: to its query object, or as its query. A
 * query that is not a plain object (a transform) declares `owner` itself.
 */
function withOwnerParam(request: RouteConfig["request"]): RouteConfig["request"] {
  const query = request?.query;
  if (!query) return { ...request, query: OwnerQuery };
  return query instanceof z.ZodObject ? { ...request, query: query.merge(OwnerQuery) } : request;
}

/**
 * Declares a wallet's GET of one of its things by id (`{id}` in `path`): 200 with what `read`
 * finds, or the 404 `read` throws when the wallet has no such thing (another's included).
 */
export function getByIdOperation(
  spec: {
    path: string;
    operationId: string;
    tags: string[];
    summary: string;
    shared?: OperationMeta["shared"];
  },
  found: ReturnType<typeof json>,
  read: (ctx: DomainContext, id: string) => Promise<object>,
): Operation {
  return operation(
    {
      method: "get",
      ...spec,
      auth: "wallet",
      request: { params: IdParam },
      responses: { 200: found, 404: ERRORS[404] },
    },
    async (c) => c.json(await read(domain(c), c.req.valid("param").id), 200),
  );
}

/**
 * Declares a wallet's action on one of its things (a memory, a webhook) by id (`{id}` in
 * `path`): `act` does it, or throws the 404 (or the `conflict` 409) that stops it; the answer
 * is `{ [done]: true, id }`.
 */
export function actOnIdOperation(
  spec: {
    method: Method;
    path: string;
    operationId: string;
    tags: string[];
    summary: string;
    shared?: OperationMeta["shared"];
  },
  answer: { done: string; description: string; conflict?: boolean },
  act: (ctx: DomainContext, id: string) => Promise<unknown>,
): Operation {
  const done = z.object({ [answer.done]: z.literal(true), id: Uuid });
  return operation(
    {
      ...spec,
      auth: "wallet",
      request: { params: IdParam },
      responses: {
        200: json(done, answer.description),
        404: ERRORS[404],
        ...(answer.conflict ? { 409: ERRORS[409] } : {}),
      },
    },
    async (c) => {
      const { id } = c.req.valid("param");
      await act(domain(c), id);
      return c.json({ [answer.done]: true, id }, 200);
    },
  );
}
