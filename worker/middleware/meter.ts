import { createMiddleware } from "hono/factory";
import type { Identification } from "../context";
import { ApiError } from "../errors";
import { isInnerCall } from "../lib/inner-call";
import { logError } from "../lib/log";
import { type HitResult, limitsFor, retryAfterSeconds } from "../meter/limits";
import { FREE_CALLS_PER_WALLET } from "../meter/prices";
import { PAYMENT_SIGNATURE_HEADER } from "../payment/required";
import type { AppContext, AppEnv } from "./app-env";
import {
  createMetering,
  type MeteredHit,
  type MeterIdentity,
  NoopMetering,
  type WalletMeter,
} from "./metering";
import { payForCall, paymentRequired } from "./payment";

/**
 * The client address Cloudflare reports; x-forwarded-for (first entry) only where the
 * platform does not set cf-connecting-ip (local runs behind a proxy).
 */
export function clientIp(headers: Headers): string {
  const cf = headers.get("cf-connecting-ip")?.trim();
  if (cf) return cf;
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || "unknown";
}

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
 * Counts every request (any path, any outcome) against the verified wallet, else the client
 * IP, and refuses it with 429 when a bucket is full. Runs after identify and before any
 * body parsing, so a refused request costs one Durable Object call and nothing else. The
 * X-RateLimit-* headers are added to whatever response the rest of the chain produces,
 * errors and 404s included (Hono has already turned those into c.res by then).
 *
 * For a wallet's paid call the same Durable Object call also takes its free call
 * (freeAllowance below reads it), and the database connection opens meanwhile: at a
 * distance, the Meter's round trip and the connection's overlap instead of adding up.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const metering = c.get("metering");
  const nowMs = Date.now();
  const identity = meterIdentity(c.get("identity"), c.req.raw.headers);
  // A tool call dispatched by /mcp was counted in "all" as the /mcp request
  // (lib/inner-call.ts); its operation's own bucket (llm) still counts here.
  const inner = isInnerCall(c.env);
  const operation = c.get("operation");
  const limits = limitsFor(operation?.bucket).filter((l) => !inner || l.bucket !== "all");
  if (limits.length === 0) return next();
  const freeTotal =
    identity.kind === "wallet" && operation?.price && !c.req.header(PAYMENT_SIGNATURE_HEADER)
      ? FREE_CALLS_PER_WALLET
      : undefined;
  const connecting =
    identity.kind === "wallet" && operation?.auth === "wallet"
      ? c.get("services").connect()
      : undefined;
  const [result] = await Promise.all([
    c
      .get("timings")
      .measure("meter", () => metering.hit(identity, limits, nowMs, freeTotal))
      .catch((err: unknown): Promise<MeteredHit> => {
        // Fail open: an unreachable meter must not take the whole API down with it. (The free
        // allowance fails closed instead: a paid call is never served unaccounted, so no
        // grant here, and freeAllowance asks again.)
        logError(`[${c.get("requestId")}] rate limiter unavailable`, err);
        return new NoopMetering().hit(identity, limits, nowMs);
      }),
    connecting,
  ]);
  const headers = rateLimitHeaders(result);
  if (!result.allowed) {
    throw new ApiError(
      "RATE_LIMIT_EXCEEDED",
      `Rate limit exceeded: ${result.limit} requests per minute`,
      { limit: result.limit, reset_at: new Date(result.resetAt * 1000).toISOString() },
      { ...headers, "Retry-After": String(retryAfterSeconds(result.resetAt, nowMs)) },
    );
  }
  if (result.free) c.set("freeGrant", result.free);
  const taken = result.free?.granted === true && identity.kind === "wallet";
  try {
    await next();
  } finally {
    // A free call taken here and not served (the request failed, here or before
    // freeAllowance ran) goes back.
    if (taken && !(c.res.status < 400 && c.get("freeServed"))) {
      await giveBack(c, metering.wallet(identity.wallet));
    }
  }
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
});

async function giveBack(c: AppContext, meter: WalletMeter): Promise<void> {
  // A failed give-back costs the wallet one free call; it must not replace the response.
  await meter
    .releaseFree()
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not give back a free call`, err),
    );
}

/**
 * Paid operations (their declared `price`) take one call from the wallet's free allowance before the
 * handler runs, and give it back when the request fails (status >= 400 or a throw), so only
 * served calls are counted. With no free call left, the answer is 402 (x402). The call is
 * usually taken already, with the rate limit (rateLimit above), which then gives it back.
 *
 * A request that carries a PAYMENT-SIGNATURE is paid with it and leaves the allowance
 * alone: the client chose to pay (x402 clients pay only after a 402, which comes once the
 * allowance is used up), and a payment is only ever accepted after full verification, even
 * when it is also the caller's identity (spec, Authentication, way 3).
 * Runs after requireWallet: a caller is always known here.
 */
export const freeAllowance = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("operation")?.price) return next();
  const payment = c.req.header(PAYMENT_SIGNATURE_HEADER);
  if (payment) return payForCall(c, payment, next);
  const taken = c.get("freeGrant");
  if (taken) {
    if (!taken.granted) return paymentRequired(c);
    await next();
    c.set("freeServed", c.res.status < 400);
    return;
  }
  const { wallet } = c.get("caller");
  const meter = c.get("metering").wallet(wallet);
  const grant = await c
    .get("timings")
    .measure("free", () => meter.reserveFree(FREE_CALLS_PER_WALLET));
  if (!grant.granted) return paymentRequired(c);
  let served = false;
  try {
    await next();
    served = c.res.status < 400;
  } finally {
    if (!served) await giveBack(c, meter);
  }
});
