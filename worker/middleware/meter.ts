import { createMiddleware } from "hono/factory";
import type { Identification } from "../context";
import { ApiError } from "../errors";
import { countsInAll, laterHit, reportInnerHit } from "../lib/inner-call";
import { logError } from "../lib/log";
import { type HitResult, limitsFor, retryAfterSeconds } from "../meter/limits";
import { PAYMENT_SIGNATURE_HEADER } from "../payment/required";
import type { AppContext, AppEnv } from "./app-env";
import { freeAskOf, giveBack } from "./charge";
import { clientIp } from "./client-ip";
import {
  createMetering,
  type FreeAsk,
  type MeteredHit,
  type MeterIdentity,
  meterKey,
  NoopMetering,
} from "./metering";

function meterIdentity(identity: Identification, headers: Headers): MeterIdentity {
  return identity.status === "wallet"
    ? { kind: "wallet", wallet: identity.wallet }
    : { kind: "ip", ip: clientIp(headers) };
}

export function rateLimitHeaders(result: HitResult): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(result.resetAt),
  };
}

/**
 * The request's Metering (the Meter Durable Objects, or none when metering is off), set
 * before identify: a sign-in-with-x nonce is claimed in the signer's Meter.
 */
export const metering = createMiddleware<AppEnv>(async (c, next) => {
  c.set("metering", createMetering(c.get("services").config, c.env));
  await next();
});

/**
 * What a wallet's paid call asks of its allowance in the rate limiter's own Meter call: a call
 * at the operation's fixed price, with no payment, and no per-IP cap to check beside it (the
 * charge point, charge.ts, takes any other itself). A price that depends on the body (`units`,
 * `priceIf`) is not known before it is read: the charge point takes that call, so that one
 * paid from credit pays the call's own price.
 */
function earlyAsk(c: AppContext, identity: MeterIdentity): FreeAsk | undefined {
  const price = c.get("paidRoute")?.price;
  const operation = c.get("operation");
  if (identity.kind !== "wallet" || !price || operation?.units || operation?.priceIf) {
    return undefined;
  }
  if (c.req.header(PAYMENT_SIGNATURE_HEADER)) return undefined;
  if (c.get("services").config.FREE_CALLS_PER_IP_PER_DAY) return undefined;
  return freeAskOf(price);
}

/**
 * Counts every request (any path, any outcome) against the verified wallet, else the client
 * IP, and refuses it with 429 when a bucket is full. Runs after identify and before any
 * body parsing, so a refused request costs one Durable Object call and nothing else. The
 * X-RateLimit-* headers are added to whatever response the rest of the chain produces,
 * errors and 404s included (Hono has already turned those into c.res by then).
 *
 * A tool call dispatched by /mcp counts like the same call made directly; the /mcp request's
 * own count stands for its first one, and the /mcp response's headers tell the counts after
 * its tool calls (lib/inner-call.ts).
 *
 * For a wallet's paid call the same Durable Object call also takes its free call (the charge
 * point, charge.ts, uses it), and the database connection opens meanwhile: at a distance, the
 * Meter's round trip and the connection's overlap instead of adding up.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const metering = c.get("metering");
  const nowMs = Date.now();
  const identity = meterIdentity(c.get("identity"), c.req.raw.headers);
  const operation = c.get("operation");
  const inAll = countsInAll(c.env);
  const limits = limitsFor(operation?.bucket).filter((l) => inAll || l.bucket !== "all");
  if (limits.length === 0) return next();
  const ask = earlyAsk(c, identity);
  const connecting =
    identity.kind === "wallet" && operation?.auth === "wallet"
      ? c.get("services").connect()
      : undefined;
  const [result] = await Promise.all([
    c
      .get("timings")
      .measure("meter", () => metering.hit(identity, limits, nowMs, ask))
      .catch((err: unknown): Promise<MeteredHit> => {
        // Fail open: an unreachable meter must not take the whole API down with it. (The free
        // allowance fails closed instead: a paid call is never served unaccounted, so no
        // grant here, and the charge point asks again.)
        logError(`[${c.get("requestId")}] rate limiter unavailable`, err);
        return new NoopMetering().hit(identity, limits, nowMs);
      }),
    connecting,
  ]);
  reportInnerHit(c.env, meterKey(identity), result);
  const headers = rateLimitHeaders(result);
  if (!result.allowed) {
    throw new ApiError(
      "RATE_LIMIT_EXCEEDED",
      `Rate limit exceeded: ${result.limit} requests per minute`,
      { limit: result.limit, reset_at: new Date(result.resetAt * 1000).toISOString() },
      { ...headers, "Retry-After": String(retryAfterSeconds(result.resetAt, nowMs)) },
    );
  }
  const taken =
    identity.kind === "wallet" && ask && result.free
      ? { wallet: identity.wallet, grant: result.free }
      : undefined;
  if (taken) c.set("freeCall", taken);
  try {
    await next();
  } finally {
    // A call taken here and not served (the request failed, here or before the charge point
    // ran) goes back.
    if (taken?.grant.granted && !(c.res.status < 400 && c.get("freeServed"))) {
      await giveBack(c, taken);
    }
  }
  // An /mcp request's tool calls were counted after it: its answer tells where they left it.
  const inner = c.get("innerCalls")?.reported.get(meterKey(identity));
  const after = rateLimitHeaders(laterHit(result, inner));
  for (const [name, value] of Object.entries(after)) c.header(name, value);
});
