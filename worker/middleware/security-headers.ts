/**
 * Headers every answer of the Worker carries, so that a browser never reads one as something
 * else or shows it inside another site's frame:
 *
 * - `X-Content-Type-Options: nosniff`: a JSON body is never sniffed into HTML or script;
 * - `X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`: no framing (clickjacking of
 *   /docs);
 * - `Referrer-Policy: no-referrer`;
 * - a JSON or other non-HTML answer gets `Content-Security-Policy: default-src 'none';
 *   frame-ancestors 'none'`: opened in a browser, it can load and run nothing. /docs sets its
 *   own policy (routes/docs.ts), which keeps `frame-ancestors 'none'`.
 *
 * The console's static files are served by Workers' assets, not by this code: their headers
 * are in console/src/_headers.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "no-referrer");
  if (!c.res.headers.has("Content-Security-Policy")) c.header("Content-Security-Policy", API_CSP);
});
