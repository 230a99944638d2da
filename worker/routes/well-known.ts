/**
 * GET /.well-known/x402 (public, free): the paid resources of this service, for x402 clients
 * and facilitators that index paid APIs (payment/listing.ts). Built from the same contract
 * as /openapi.json and the 402 answers, so the three never disagree.
 */
import { z } from "@hono/zod-openapi";
import { listPaidResources } from "../payment/listing";
import { paymentSettings } from "../payment/settings";
import { cachedPublic } from "./edge-cache";
import { json, operation } from "./operation";

const Requirement = z.object({
  scheme: z.string(),
  network: z.string(),
  asset: z.string(),
  amount: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  extra: z.record(z.string(), z.unknown()),
});

const X402Resource = z
  .object({
    resource: z.string().openapi({ description: "The URL; path parameters as `:name`" }),
    type: z.literal("http"),
    x402Version: z.number().int(),
    accepts: z.array(Requirement).openapi({
      description: "x402 v2 PaymentRequirements; empty when the service takes no payments",
    }),
    lastUpdated: z.string().openapi({ description: "When this instance loaded its contract" }),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    serviceName: z.string().optional(),
    tags: z.array(z.string()).optional(),
    iconUrl: z.string().optional(),
    extensions: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "`bazaar`: the x402 discovery extension (method, input and output JSON schemas, examples)",
    }),
    price: z.object({
      amount: z.string(),
      usd: z.string(),
      asset: z.string(),
      symbol: z.string(),
      decimals: z.number().int(),
      network: z.string(),
    }),
  })
  .openapi("X402Resource");

const X402Listing = z
  .object({
    x402Version: z.number().int(),
    items: z.array(X402Resource),
    pagination: z.object({
      limit: z.number().int(),
      offset: z.number().int(),
      total: z.number().int(),
    }),
  })
  .openapi("X402Listing");

/** First listing of this isolate: the contract cannot change before the next deployment. */
let loadedAt: string | undefined;

export const wellKnownX402Op = operation(
  {
    method: "get",
    path: "/.well-known/x402",
    operationId: "x402Resources",
    tags: ["service"],
    summary: "The paid resources: price, network, asset, and each one's input and output schemas",
    description:
      "In the shape of x402's discovery API (`items` of DiscoveryResource, with the `bazaar` extension of each). Public, cached 300 s.",
    auth: "public",
    responses: { 200: json(X402Listing, "Every paid resource") },
  },
  (c) =>
    cachedPublic(c, () => {
      loadedAt ??= new Date().toISOString();
      const settings = paymentSettings(c.get("services").config);
      const origin = new URL(c.req.url).origin;
      return c.json(listPaidResources(settings, c.get("paidRoutes").all(), origin, loadedAt), 200);
    }),
);
