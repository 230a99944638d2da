/**
 * The x402 `bazaar` extension (specs/extensions/bazaar.md): how to call a paid resource, so
 * that facilitators that index paid APIs can list it. Everything comes from the contract
 * (the served OpenAPI document, worker/lib/openapi.ts): the HTTP method, the body or query
 * schema, the success response's schema, path parameters, and examples made from those
 * schemas (example.ts). The formats are @x402/extensions' own: `declareDiscoveryExtension`
 * builds the declaration, and `bazaarResourceServerExtension.enrichDeclaration` adds, per
 * request, the method, the route template (`/v1/memories/:id`) and the path's parameters, as
 * x402's resource server does.
 */
import type { HTTPAdapter, HTTPRequestContext } from "@x402/core/server";
import {
  BAZAAR,
  bazaarResourceServerExtension,
  type DeclareDiscoveryExtensionInput,
  declareDiscoveryExtension,
} from "@x402/extensions/bazaar";
import {
  bodySchema,
  type DocOperation,
  inline,
  type JsonSchema,
  type OpenApiDoc,
  successSchema,
} from "../lib/openapi";
import { exampleOf } from "./example";

/** What a paid route's contract says about calling it. */
export interface RouteContract {
  /** Upper-case HTTP method. */
  method: string;
  /** The OpenAPI path template, e.g. `/v1/memories/{id}`. */
  path: string;
  summary: string;
  /** Object schemas of the path and query parameters; undefined when there are none. */
  pathParams?: JsonSchema;
  query?: JsonSchema;
  /** The JSON body's schema; undefined when the route takes none. */
  body?: JsonSchema;
  /** The success response's schema. */
  output: JsonSchema;
}

/** An object schema of the parameters of one kind (`path`, `query`), or undefined for none. */
function parametersSchema(op: DocOperation, doc: OpenApiDoc, kind: string): JsonSchema | undefined {
  const params = (op.parameters ?? []).filter((p) => p.in === kind);
  if (params.length === 0) return undefined;
  const components = doc.components?.schemas ?? {};
  return {
    type: "object",
    properties: Object.fromEntries(params.map((p) => [p.name, inline(p.schema ?? {}, components)])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/** The contract of one route of the document; throws when the document lacks it. */
export function routeContract(doc: OpenApiDoc, method: string, path: string): RouteContract {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`the contract has no ${method} ${path}`);
  return {
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? op.operationId,
    pathParams: parametersSchema(op, doc, "path"),
    query: parametersSchema(op, doc, "query"),
    body: bodySchema(op, doc),
    output: successSchema(op, doc),
  };
}

/** The OpenAPI template in the `:param` form bazaar's route templates use. */
export const colonTemplate = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/** The route's path with each parameter replaced by an example value of its schema. */
export function examplePath(contract: RouteContract): string {
  const values = (contract.pathParams ? exampleOf(contract.pathParams) : {}) as Record<
    string,
    unknown
  >;
  return contract.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name] ?? name)),
  );
}

/**
 * The route's bazaar declaration (before the per-request enrichment). A route with a body is
 * declared with its body (bazaar's body methods carry no query schema; no paid route has
 * both); one without, with its query parameters.
 */
export function declareBazaar(contract: RouteContract): Record<string, unknown> {
  const output = { example: exampleOf(contract.output), schema: contract.output };
  const pathParams = contract.pathParams
    ? {
        pathParams: exampleOf(contract.pathParams) as Record<string, unknown>,
        pathParamsSchema: contract.pathParams,
      }
    : {};
  const config: DeclareDiscoveryExtensionInput = contract.body
    ? {
        bodyType: "json",
        input: exampleOf(contract.body) as Record<string, unknown>,
        inputSchema: contract.body,
        output,
        ...pathParams,
      }
    : {
        input: contract.query ? (exampleOf(contract.query) as Record<string, unknown>) : {},
        inputSchema: contract.query ?? { properties: {} },
        output,
        ...pathParams,
      };
  return declareDiscoveryExtension(config);
}

/** x402's HTTP request context over a Fetch API request, for extension hooks. */
export function httpRequestContext(request: Request, contract: RouteContract): HTTPRequestContext {
  const url = new URL(request.url);
  const adapter: HTTPAdapter = {
    getHeader: (name) => request.headers.get(name) ?? undefined,
    getMethod: () => request.method,
    getPath: () => url.pathname,
    getUrl: () => request.url,
    getAcceptHeader: () => request.headers.get("accept") ?? "",
    getUserAgent: () => request.headers.get("user-agent") ?? "",
  };
  return {
    adapter,
    path: url.pathname,
    method: request.method,
    routePattern: colonTemplate(contract.path),
  };
}

/** The declaration enriched for one request (method, route template, path parameters). */
export function bazaarFor(
  declared: Record<string, unknown>,
  context: HTTPRequestContext,
): Record<string, unknown> {
  const declaration = declared[BAZAAR.key];
  const enrich = bazaarResourceServerExtension.enrichDeclaration;
  return { [BAZAAR.key]: enrich ? enrich(declaration, context) : declaration };
}
