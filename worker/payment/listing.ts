/**
 * GET /.well-known/x402: every paid resource of this service in the shape of x402's
 * discovery API (specs/x402-specification-v2.md §8; @x402/extensions' DiscoveryResource):
 * its URL (path parameters as `:name`), the payment it accepts (network, asset, amount,
 * payTo), and its bazaar extension (method, input and output schemas with examples). Each
 * item also states its `price` (atomic amount, USD, asset, network), which stays readable when
 * payments are off and `accepts` is empty.
 */
import type { DiscoveryResource, DiscoveryResourcesResponse } from "@x402/extensions/bazaar";
import { bazaarFor, colonTemplate, examplePath, httpRequestContext } from "./bazaar";
import type { PaidRoute } from "./paid-route";
import { priceDetails, requirementsFor } from "./required";
import { type PaymentSettings, PRICE_SYMBOL } from "./settings";

export const SERVICE_NAME = "memory-service";

export type ListedResource = DiscoveryResource & { price: ReturnType<typeof priceDetails> };

export interface Listing extends DiscoveryResourcesResponse {
  items: ListedResource[];
}

/**
 * The listing for `origin`. The bazaar extension is enriched as for a request to the route's
 * example path, so a parameterised route shows its `routeTemplate` and example parameters.
 */
export function listPaidResources(
  settings: PaymentSettings,
  routes: PaidRoute[],
  origin: string,
  lastUpdated: string,
): Listing {
  const items = routes.map((route): ListedResource => {
    const { contract } = route;
    const example = new Request(new URL(examplePath(contract), origin), {
      method: contract.method,
    });
    return {
      resource: `${origin}${colonTemplate(contract.path)}`,
      type: "http",
      x402Version: 2,
      accepts: requirementsFor(settings, route.price),
      lastUpdated,
      description: `${contract.summary}: ${route.price.usd} ${PRICE_SYMBOL} per ${route.per ?? "call"}${
        route.dearer ? `; ${route.dearer.price.usd} ${PRICE_SYMBOL} when ${route.dearer.when}` : ""
      }`,
      mimeType: "application/json",
      serviceName: SERVICE_NAME,
      extensions: bazaarFor(route.bazaar, httpRequestContext(example, contract)),
      price: priceDetails(settings, route.price),
    };
  });
  return {
    x402Version: 2,
    items,
    pagination: { limit: items.length, offset: 0, total: items.length },
  };
}
