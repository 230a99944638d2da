/**
 * x402's bazaar extension and GET /.well-known/x402, held to the contract: every 402 declares
 * how to call its resource (method, body schema, output schema, path template) exactly as
 * /openapi.json declares the operation, with examples that pass those schemas (facilitators
 * validate them before listing); the listing names every priced operation of the document
 * and nothing else; an MCP paid tool's 402 result carries the same extensions.
 */
import { Validator } from "@cfworker/json-schema";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bodySchema,
  type DocOperation,
  type JsonSchema,
  type OpenApiDoc,
  successSchema,
} from "../../worker/lib/openapi";
import {
  bazaarFor,
  declareBazaar,
  httpRequestContext,
  routeContract,
} from "../../worker/payment/bazaar";
import { callTool, expectError, type Json, MISSING_ID, newWallet, request } from "../helpers";
import { chain, chainFetch, exhaustAllowance, newPayer, requiredOf } from "./chain";

const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

let doc: OpenApiDoc;

beforeAll(async () => {
  const res = await request("GET", "/openapi.json");
  doc = res.body as OpenApiDoc;
});

function docOperation(method: string, path: string): DocOperation {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`not in /openapi.json: ${method} ${path}`);
  return op;
}

/** Asserts a bazaar extension against the document's operation; returns its info.input. */
function expectBazaar(bazaar: unknown, method: string, path: string): Json {
  const { info, schema, routeTemplate } = bazaar as {
    info: Json;
    schema: JsonSchema;
    routeTemplate?: string;
  };
  // What a facilitator checks before it lists the resource.
  const validation = new Validator(schema as never, "2020-12", false).validate(info);
  expect(validation.errors, `${method} ${path}`).toEqual([]);
  const op = docOperation(method, path);
  expect(info.input.type).toBe("http");
  expect(info.input.method).toBe(method);
  expect(info.input.bodyType).toBe("json");
  const input = (schema.properties as Json).input.properties;
  expect(input.body).toEqual(bodySchema(op, doc));
  expect(input.method).toEqual({ type: "string", enum: [method] });
  const output = successSchema(op, doc);
  expect((schema.properties as Json).output.properties.example).toEqual({
    ...output,
    type: "object",
  });
  expect(new Validator(output as never, "2020-12").validate(info.output.example).valid).toBe(true);
  expect(routeTemplate).toBe(path.includes("{") ? path.replace(/\{(\w+)\}/g, ":$1") : undefined);
  return info.input;
}

const bazaarOf = (required: PaymentRequired) => required.extensions?.bazaar;

describe("bazaar in every 402", () => {
  it("declares method, body and output schemas of each paid route, from the contract", async () => {
    const w = newWallet();
    await exhaustAllowance(w.address);
    const cases: Array<[string, string, string, unknown]> = [
      ["POST", "/v1/store", "/v1/store", { content: "x" }],
      ["POST", "/v1/store/batch", "/v1/store/batch", { memories: [{ content: "x" }] }],
      ["POST", "/v1/recall", "/v1/recall", { query: "x" }],
      ["POST", "/v1/memories/extract", "/v1/memories/extract", { text: "x" }],
      ["PATCH", `/v1/memories/${MISSING_ID}`, "/v1/memories/{id}", { content: "y" }],
      // A body that validates: the 402 comes after validation (the charge point).
      [
        "PATCH",
        "/v1/memories/batch",
        "/v1/memories/batch",
        { updates: [{ id: MISSING_ID, importance: 1 }] },
      ],
      [
        "POST",
        "/v1/memories/batch-update",
        "/v1/memories/batch-update",
        { updates: [{ id: MISSING_ID, importance: 1 }] },
      ],
    ];
    for (const [method, url, path, body] of cases) {
      const res = await w.call(method, url, body);
      const required = requiredOf(res);
      const input = expectBazaar(bazaarOf(required), method, path);
      if (path.includes("{id}")) expect(input.pathParams).toEqual({ id: MISSING_ID });
      expect(Object.keys(required.extensions ?? {}).sort()).toEqual([
        "bazaar",
        "payment-identifier",
        "sign-in-with-x",
      ]);
    }
  });

  it("is in a refused payment's 402 too", async () => {
    const p = await newPayer();
    const res = await p.call(
      "POST",
      "/v1/recall",
      { query: "x" },
      { "payment-signature": btoa("{}") },
    );
    const error = expectError(res, 402, "PAYMENT_REQUIRED");
    expect(error.details.reason).toMatch(/^PAYMENT-SIGNATURE is not an x402 v2/);
    expectBazaar(bazaarOf(requiredOf(res)), "POST", "/v1/recall");
  });

  it("is in a paid MCP tool's 402 result", async () => {
    const w = newWallet();
    await exhaustAllowance(w.address);
    const res = await callTool(w, "memoclaw_recall", { query: "anything" });
    expect(res.status).toBe(200);
    const { result } = res.body;
    expect(result.isError).toBe(true);
    const required = result.structuredContent as PaymentRequired;
    expectBazaar(bazaarOf(required), "POST", "/v1/recall");
    expect(required.extensions?.["sign-in-with-x"]).toBeDefined();
    expect(required.extensions?.["payment-identifier"]).toBeDefined();
  });

  it("declares a query route's parameters (no paid route has one yet)", () => {
    const thing: OpenApiDoc = {
      paths: {
        "/v1/things/{id}": {
          get: {
            operationId: "getThing",
            summary: "A thing",
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string" } },
              {
                name: "limit",
                in: "query",
                required: true,
                schema: { type: "integer", minimum: 1 },
              },
              { name: "tags", in: "query", schema: { type: "string" } },
            ],
            responses: {
              "200": {
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { n: { type: "integer" } } },
                  },
                },
              },
            },
          },
        },
      },
    };
    const contract = routeContract(thing, "GET", "/v1/things/{id}");
    const context = httpRequestContext(
      new Request("https://api.test/v1/things/abc?limit=3"),
      contract,
    );
    const { info, schema, routeTemplate } = bazaarFor(declareBazaar(contract), context)
      .bazaar as Json;
    expect(info.input).toEqual({
      type: "http",
      method: "GET",
      queryParams: { limit: 1 },
      pathParams: { id: "abc" },
    });
    expect(routeTemplate).toBe("/v1/things/:id");
    expect(schema.properties.input.properties.queryParams).toMatchObject({
      type: "object",
      required: ["limit"],
    });
    expect(new Validator(schema, "2020-12", false).validate(info).errors).toEqual([]);
  });
});

/** `METHOD /path/{param}` of every priced operation of the document, aliases included. */
function pricedRoutes(): Map<string, DocOperation> {
  const priced = new Map<string, DocOperation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op["x-price-usd"]) priced.set(`${method.toUpperCase()} ${path}`, op);
    }
  }
  return priced;
}

const ATOMIC: Record<string, string> = { "0.005": "5000", "0.04": "40000", "0.01": "10000" };

describe("GET /.well-known/x402", () => {
  it("lists every priced operation of the contract, and nothing else", async () => {
    const res = await request("GET", "/.well-known/x402");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const listing = res.body;
    const priced = pricedRoutes();
    expect(priced.size).toBeGreaterThanOrEqual(10);
    const listed = listing.items.map((item: Json) => {
      const path = new URL(item.resource).pathname.replace(/:(\w+)/g, "{$1}");
      return `${item.extensions.bazaar.info.input.method} ${decodeURI(path)}`;
    });
    expect([...listed].sort()).toEqual([...priced.keys()].sort());
    expect(listing.pagination).toEqual({ limit: priced.size, offset: 0, total: priced.size });

    for (const [i, item] of listing.items.entries()) {
      const [method = "", path = ""] = (listed[i] as string).split(" ");
      const usd = priced.get(listed[i])?.["x-price-usd"] ?? "";
      expect(item).toMatchObject({
        type: "http",
        x402Version: 2,
        resource: `http://memory.test${path.replace(/\{(\w+)\}/g, ":$1")}`,
        // The suite's Worker takes no payments: nothing to accept, the price still stated.
        accepts: [],
        price: { usd, amount: ATOMIC[usd], network: "eip155:8453", asset: BASE_USDC, decimals: 6 },
      });
      expectBazaar(item.extensions.bazaar, method, path);
      // A body-dependent dearer price (a batch update that embeds) is stated too.
      const dearer = priced.get(listed[i])?.["x-price-if"];
      if (dearer) expect(item.description).toContain(`${dearer.usd} USDC when ${dearer.when}`);
    }
  });

  it("states what each resource accepts once payments are configured", async () => {
    // Another host: the listing is cached at the edge by URL, and the suite shares one cache.
    const res = await request("GET", "/.well-known/x402", {
      fetch: (url, init) => chainFetch(url.replace("//memory.test/", "//chain.test/"), init),
    });
    expect(res.status).toBe(200);
    for (const item of res.body.items) {
      expect(item.resource).toMatch(/^http:\/\/chain\.test\/v1\//);
      const eip3009 = {
        scheme: "exact",
        network: chain.network,
        asset: chain.asset,
        amount: item.price.amount,
        payTo: chain.payTo,
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      };
      const permit2 = { ...eip3009, extra: { ...eip3009.extra, assetTransferMethod: "permit2" } };
      expect(item.accepts).toEqual([eip3009, permit2]);
    }
  });

  it("is public and declared in /openapi.json", () => {
    const op = docOperation("GET", "/.well-known/x402");
    expect(op["x-price-usd"]).toBeUndefined();
    expect((op as Json)["x-auth"]).toBe("public");
  });
});

describe("402 header size", () => {
  it("stays well under common 16 KiB header limits for the largest paid route", async () => {
    const w = newWallet();
    await exhaustAllowance(w.address);
    for (const [path, body] of [
      ["/v1/recall", { query: "x" }],
      ["/v1/store/batch", { memories: [{ content: "x" }] }],
    ] as const) {
      const header = (await w.post(path, body)).headers.get("payment-required") ?? "";
      expect(decodePaymentRequiredHeader(header).extensions?.bazaar).toBeDefined();
      expect(header.length, path).toBeLessThan(12 * 1024);
    }
  });
});
