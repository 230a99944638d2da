/**
 * The address a request comes from, for whatever counts per client IP (the anonymous rate
 * limit, the operator's daily cap on free calls per IP): `cf-connecting-ip` and nothing else.
 *
 * On Cloudflare the edge sets that header on every request to the Worker, replacing any a
 * client sent, so it cannot be forged from outside. `x-forwarded-for` is never read: every
 * client controls it. Locally (`wrangler dev`, the tests) there is no edge: the header is what
 * the local caller sent, or absent, and then all such requests share one "unknown" bucket.
 * That is the local service trusting its loopback callers, not a path open in production.
 */
export function clientIp(headers: Headers): string {
  return headers.get("cf-connecting-ip")?.trim() || "unknown";
}
