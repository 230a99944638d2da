/**
 * The charge point of a paid operation. routes/operation.ts wraps every priced handler with
 * `charged`, so this runs after the request was identified, rate-limited and its input
 * validated (a 422 never charges anything), and before the handler does any paid work (an
 * embedding, a language-model call, a write). A call is paid for in one of three ways, or
 * refused:
 *
 * - a PAYMENT-SIGNATURE: settled before the handler runs (payment.ts);
 * - else the wallet's free allowance: one call, or one per unit of the call (an import of 250
 *   memories takes three, all or none), given back when the handler fails; a call at its
 *   operation's dearer price (`priceIf`: a batch update that embeds) still takes one;
 * - else the wallet's credit (what it paid for calls that failed after settling), given back
 *   likewise;
 * - else 402 with the price of this call (its units times its price class: the declared one,
 *   or the dearer one its body calls for).
 *
 * The free call is usually taken already, in the rate limiter's Meter call (meter.ts), which
 * then also gives it back; otherwise it is taken here. When the operator caps the free calls a
 * client IP may take a day (FREE_CALLS_PER_IP_PER_DAY), a free call also takes one from the
 * IP's Meter, in parallel, and gives it back with it.
 */
import { ApiError } from "../errors";
import { logError } from "../lib/log";
import { DAY_SECONDS, FREE_PER_IP_BUCKET, freePerIpLimit, windowStartOf } from "../meter/limits";
import { FREE_CALLS_PER_WALLET, PRICES, type Price, priceTimes } from "../meter/prices";
import type { PaidRoute } from "../payment/paid-route";
import {
  PAYMENT_SIGNATURE_HEADER,
  type PaidResource,
  paymentRequiredError,
} from "../payment/required";
import { paymentSettings } from "../payment/settings";
import type { AppContext } from "./app-env";
import { clientIp } from "./client-ip";
import { errorResponse } from "./error-response";
import type { FreeAsk, FreeGrant, MeteredHit, TakenCall } from "./metering";
import type { OperationMeta } from "./operation-meta";
import { payForCall } from "./payment";

/** What a call without a payment asks of the wallet: its free calls, else its price in credit. */
export const freeAskOf = (price: Price, count = 1): FreeAsk => ({
  total: FREE_CALLS_PER_WALLET,
  ...(count === 1 ? {} : { count }),
  creditPrice: Number(price.atomic),
});

/** The declared paid route of this request; every priced operation has one. */
function paidRouteOf(c: AppContext): PaidRoute {
  const route = c.get("paidRoute");
  if (!route) {
    logError(`[${c.get("requestId")}] no paid route for ${c.req.method} ${c.req.path}`);
    throw new ApiError("INTERNAL_ERROR", "Internal server error");
  }
  return route;
}

/** The validated JSON body, for an operation whose price depends on it. */
function validJson(c: AppContext): unknown {
  return (c.req as unknown as { valid(target: "json"): unknown }).valid("json");
}

/**
 * The paid route of this call: the declared one, or, when its body calls for the operation's
 * dearer price (`priceIf`), the same route at that price, so that its 402 asks that amount
 * "per call".
 */
function routeOfCall(c: AppContext, priceIf: OperationMeta["priceIf"]): PaidRoute {
  const route = paidRouteOf(c);
  return priceIf?.applies(validJson(c)) ? { ...route, price: PRICES[priceIf.price] } : route;
}

/** `handler` behind the charge point (module comment). */
export function charged(
  { units, priceIf }: Pick<OperationMeta, "units" | "priceIf">,
  handler: (c: AppContext) => Response | Promise<Response>,
): (c: AppContext) => Promise<Response> {
  return async (c) => {
    const route = routeOfCall(c, priceIf);
    const count = units ? units.count(validJson(c)) : 1;
    const resource: PaidResource = {
      request: c.req.raw,
      route,
      price: priceTimes(route.price, count),
    };
    // The handler's answer, a thrown error rendered as the app renders it, so that the charge
    // can be given back for it; mutable, for the payment's headers.
    const run = async (): Promise<Response> => {
      let response: Response;
      try {
        response = await handler(c);
      } catch (err) {
        response = errorResponse(c, err);
      }
      return new Response(response.body, response);
    };
    const payment = c.req.header(PAYMENT_SIGNATURE_HEADER);
    if (payment) return payForCall(c, payment, resource, run);
    return fromAllowance(c, resource, count, run);
  };
}

async function fromAllowance(
  c: AppContext,
  resource: PaidResource,
  count: number,
  run: () => Promise<Response>,
): Promise<Response> {
  const { wallet } = c.get("caller");
  const early = c.get("freeCall");
  const taken = early ?? (await takeCall(c, wallet, freeAskOf(resource.price, count)));
  if (!taken.grant.granted) {
    throw await paymentRequiredError(paymentSettings(c.get("services").config), resource, {
      ...(taken.refusedBy === "ip"
        ? {
            message:
              "The free calls of this network address are used up for today: pay per request with x402",
          }
        : {}),
    });
  }
  c.set("payment", taken.grant.credit === undefined ? "free" : "credit");
  let served = false;
  try {
    const response = await run();
    served = response.status < 400;
    return response;
  } finally {
    // Taken by the rate limiter: it gives the call back unless it was served.
    if (early) c.set("freeServed", served);
    else if (!served) await giveBack(c, taken);
  }
}

/**
 * Takes a call from the wallet's allowance or credit and, when the operator caps free calls
 * per IP, one count of the client IP's day beside it (both at once). A side that took while
 * the other refused gives back what it took.
 */
async function takeCall(c: AppContext, wallet: string, ask: FreeAsk): Promise<TakenCall> {
  const metering = c.get("metering");
  const cap = c.get("services").config.FREE_CALLS_PER_IP_PER_DAY;
  const nowMs = Date.now();
  const ip = clientIp(c.req.raw.headers);
  const count = ask.count ?? 1;
  const [grant, ipHit] = await c.get("timings").measure("free", () =>
    Promise.all([
      metering.wallet(wallet).reserveFree(ask.total, ask.count, ask.creditPrice),
      cap
        ? metering.hit({ kind: "ip", ip }, [freePerIpLimit(cap)], nowMs, undefined, count)
        : undefined,
    ]).catch((err: unknown) => {
      // The allowance fails closed: a paid call is never served unaccounted.
      logError(`[${c.get("requestId")}] free allowance unavailable`, err);
      throw new ApiError("SERVICE_UNAVAILABLE", "Metering unavailable; retry shortly", undefined, {
        "Retry-After": "1",
      });
    }),
  );
  const taken: TakenCall = { wallet, grant };
  return reconcileIpCap(c, taken, ipHit && { hit: ipHit, ip, nowMs, count });
}

/** The two sides of a free call with an IP cap, made to agree (takeCall). */
async function reconcileIpCap(
  c: AppContext,
  taken: TakenCall,
  side: { hit: MeteredHit; ip: string; nowMs: number; count: number } | undefined,
): Promise<TakenCall> {
  if (!side) return taken;
  const windowStart = windowStartOf(side.nowMs, DAY_SECONDS);
  const ipTaken = { ip: side.ip, windowStart, count: side.count };
  const free = taken.grant.granted && taken.grant.credit === undefined;
  if (free && side.hit.allowed) return { ...taken, ip: ipTaken };
  if (free) {
    // The IP's day is used up: the wallet's free call goes back, and nothing is taken.
    await giveBack(c, taken);
    return { ...taken, grant: { ...taken.grant, granted: false }, refusedBy: "ip" };
  }
  // Paid from credit, or not taken at all: the IP's count goes back.
  if (side.hit.allowed) await giveBack(c, { wallet: taken.wallet, grant: noGrant, ip: ipTaken });
  return taken;
}

const noGrant: FreeGrant = { granted: false, used: 0, remaining: 0 };

/** Gives back a taken call: its free calls or its credit, and the IP's count. */
export async function giveBack(c: AppContext, taken: TakenCall): Promise<void> {
  const metering = c.get("metering");
  const meter = metering.wallet(taken.wallet);
  const { grant, ip } = taken;
  // A failed give-back costs the wallet a call; it must not replace the response.
  await Promise.all([
    grant.granted
      ? grant.credit !== undefined
        ? meter.addCredit(grant.credit)
        : meter.releaseFree(grant.count ?? 1)
      : undefined,
    ip
      ? metering.unhit({ kind: "ip", ip: ip.ip }, FREE_PER_IP_BUCKET, ip.windowStart, ip.count)
      : undefined,
  ]).catch((err: unknown) =>
    logError(`[${c.get("requestId")}] could not give back a free call`, err),
  );
}
