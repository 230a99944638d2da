/**
 * The router and the contract come from one list of declared operations: each is registered
 * with @hono/zod-openapi (validation, OpenAPI document), and `operationFor` finds the
 * declaration of a request before any route runs, so that auth, rate-limit buckets and
 * prices are read from it (app.ts).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { OpenApiDoc } from "../lib/openapi";
import { PRICES } from "../meter/prices";
import type { AppEnv } from "../middleware/app-env";
import { declareBazaar, routeContract } from "../payment/bazaar";
import type { PaidRoute, PaidRoutes } from "../payment/paid-route";
import { sessionOp } from "./auth/session";
import { contractOperations } from "./docs";
import { healthOp } from "./health";
import { mcpOperations } from "./mcp";
import type { Operation } from "./operation";
import { ITEM_SCHEMAS, V1_OPERATIONS } from "./v1";
import { wellKnownX402Op } from "./well-known";

export const INFO = {
  title: "memory-service",
  version: "1.0.0",
  description:
    "Long-term memory for AI agents. Identify with a wallet: the `x-wallet-auth` header (`{address}:{unix_ts}:{signature of service-auth:{unix_ts}}`) or a bearer token from POST /auth/session. Every wallet has 100 free calls to paid operations (`x-price-usd`), then pays per call with x402 v2 (USDC on Base): a 402 carries `PAYMENT-REQUIRED` (with the x402 extensions `bazaar`, `payment-identifier` and `sign-in-with-x`), the retry carries `PAYMENT-SIGNATURE`. A signed sign-in-with-x message (`SIGN-IN-WITH-X`) identifies a wallet too. `GET /.well-known/x402` lists the paid resources.",
};

let registered: OpenAPIHono<AppEnv> | undefined;
let document: unknown;

/** The OpenAPI 3.1 document of an app whose routes are registered (static: built once). */
export function openApiDocument(app: OpenAPIHono<AppEnv>) {
  return app.getOpenAPI31Document({ openapi: "3.1.0", info: INFO });
}

/** The document of the registered app, built once: the declarations never change. */
function contractDocument() {
  if (!registered) throw new Error("routes are not registered");
  document ??= openApiDocument(registered);
  return document;
}

/** Every operation the service answers, in registration order. */
export const OPERATIONS: Operation[] = [
  healthOp,
  sessionOp,
  ...contractOperations(contractDocument),
  wellKnownX402Op,
  ...mcpOperations(contractDocument, () => {
    const app = registered;
    if (!app) throw new Error("routes are not registered");
    return (request, env, ctx) => Promise.resolve(app.fetch(request, env, ctx));
  }),
  ...V1_OPERATIONS,
];

/** A declared route: its operation, upper-case method and OpenAPI path template. */
interface Matcher {
  method: string;
  path: string;
  pattern: RegExp;
  operation: Operation;
}

const MATCHERS: Matcher[] = OPERATIONS.flatMap((operation) =>
  operation.routes.map((route) => ({
    method: route.method.toUpperCase(),
    path: route.path,
    pattern: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
    operation,
  })),
);

/** The declared route of a request, as the router will pick it; undefined for none. */
function routeFor(method: string, path: string): Matcher | undefined {
  const m = method === "HEAD" ? "GET" : method;
  return MATCHERS.find((x) => x.method === m && x.pattern.test(path));
}

/** The declared operation of a request, as the router will pick it; undefined for none. */
export function operationFor(method: string, path: string): Operation | undefined {
  return routeFor(method, path)?.operation;
}

let paidRouteMap: Map<Matcher, PaidRoute> | undefined;

/** Every priced route (aliases included) with its contract, read from the document once. */
function paidRouteMapOf(): Map<Matcher, PaidRoute> {
  if (paidRouteMap) return paidRouteMap;
  const doc = contractDocument() as OpenApiDoc;
  const map = new Map<Matcher, PaidRoute>();
  for (const matcher of MATCHERS) {
    const price = matcher.operation.price;
    if (!price) continue;
    const contract = routeContract(doc, matcher.method, matcher.path);
    const per = matcher.operation.units?.per;
    const dearer = matcher.operation.priceIf;
    map.set(matcher, {
      contract,
      price: PRICES[price],
      ...(per ? { per } : {}),
      ...(dearer ? { dearer: { price: PRICES[dearer.price], when: dearer.when } } : {}),
      bazaar: declareBazaar(contract),
    });
  }
  paidRouteMap = map;
  return map;
}

/** The paid routes of the contract, for the payment middleware and GET /.well-known/x402. */
export const PAID_ROUTES: PaidRoutes = {
  all: () => [...paidRouteMapOf().values()],
  find: (method, path) => {
    const matcher = routeFor(method, path);
    return matcher?.operation.price ? paidRouteMapOf().get(matcher) : undefined;
  },
};

export function registerRoutes(target: OpenAPIHono<AppEnv>) {
  registered = target;
  target.openAPIRegistry.registerComponent("securitySchemes", "walletAuth", {
    type: "apiKey",
    in: "header",
    name: "x-wallet-auth",
    description: "`{wallet_address}:{unix_timestamp}:{signature}`; the timestamp is valid 300 s",
  });
  target.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A session token from POST /auth/session (7 days)",
  });
  target.openAPIRegistry.registerComponent("securitySchemes", "signInWithX", {
    type: "apiKey",
    in: "header",
    name: "SIGN-IN-WITH-X",
    description:
      "x402 sign-in-with-x (CAIP-122/SIWE): base64 JSON of a message signed by the wallet, for this host, on the payment network, issued within 300 s; each nonce is accepted once",
  });
  target.openAPIRegistry.registerComponent("securitySchemes", "x402Payment", {
    type: "apiKey",
    in: "header",
    name: "PAYMENT-SIGNATURE",
    description:
      "x402 v2 payment payload (base64), answering a 402's PAYMENT-REQUIRED; its payer is the wallet",
  });
  for (const [name, schema] of Object.entries(ITEM_SCHEMAS)) {
    target.openAPIRegistry.register(name, schema);
  }
  for (const op of OPERATIONS) {
    for (const route of op.routes) target.openapi(route, op.handler as never);
  }
}
