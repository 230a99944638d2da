import { afterResponse } from "../lib/after-response";
import type { AppContext } from "../middleware/app-env";

/** How long public documents (free-tier info, the OpenAPI document, /docs) may be cached. */
export const PUBLIC_MAX_AGE_SECONDS = 300;

/**
 * A public answer that is the same for every caller: served from the edge cache when it is
 * there (Workers' `caches.default`; absent in plain Node), else built, cached after the
 * response, and sent with `Cache-Control: public, max-age=300`.
 */
export async function cachedPublic(c: AppContext, build: () => Response): Promise<Response> {
  const cache = typeof caches === "undefined" ? undefined : caches.default;
  const key = new Request(new URL(c.req.path, c.req.url).toString(), { method: "GET" });
  const hit = await cache?.match(key);
  if (hit) return new Response(hit.body, hit);
  const response = build();
  response.headers.set("Cache-Control", `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`);
  if (cache) await afterResponse(c, cache.put(key, response.clone()), "caching a public document");
  return response;
}
