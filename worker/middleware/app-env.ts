/**
 * The Hono app's environment: the Worker's bindings and the variables the middleware sets on
 * each request for the routes (services, identity, metering, the matched operation), and
 * `domain(c)`, the domain context of an authenticated request. Imported by the middleware, the
 * routes and app.ts; imports only what those variables are.
 */
import type { Context } from "hono";
import {
  type Caller,
  type DomainContext,
  domainContext,
  type Identification,
  type Services,
} from "../context";
import type { Env } from "../env";
import type { InnerCalls } from "../lib/inner-call";
import type { Timings } from "../lib/timing";
import type { PaidRoute, PaidRoutes } from "../payment/paid-route";
import type { Metering, TakenCall } from "./metering";
import type { OperationMeta } from "./operation-meta";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    timings: Timings;
    services: Services;
    identity: Identification;
    metering: Metering;
    caller: Caller;
    /** The declared operation the method and path match; undefined for an unknown route. */
    operation: OperationMeta | undefined;
    /** The contract's paid routes (worker/routes), for 402 answers and the x402 listing. */
    paidRoutes: PaidRoutes;
    /** The paid route of this request, found once with its operation; undefined when free. */
    paidRoute: PaidRoute | undefined;
    /** The free call the rate-limit call took for a paid request (middleware/meter.ts). */
    freeCall: TakenCall | undefined;
    /** Whether the charge point served that call (charge.ts; else rateLimit gives it back). */
    freeServed: boolean | undefined;
    /** An /mcp request's tool calls (lib/inner-call.ts), for its rate-limit headers. */
    innerCalls: InnerCalls | undefined;
    /**
     * How the charge point had this call paid for, for its log line (request-log.ts): set
     * where that is decided (charge.ts, paid-call.ts, payment.ts); unset, nothing was charged.
     */
    payment: PaymentOutcome | undefined;
  };
};

/**
 * How a paid operation's call was paid for: a free call or the wallet's credit (either given
 * back when the call failed), a settled payment, a settled payment credited because the call
 * failed, a settlement whose outcome was unknown at its bound (a 502; the payer's Meter keeps
 * it), or a payment identifier's kept answer sent again.
 */
export type PaymentOutcome =
  | "free"
  | "credit"
  | "paid"
  | "credited"
  | "unknown-outcome"
  | "replayed";

export type AppContext = Context<AppEnv>;

/** The domain context of an authenticated request. */
export function domain(c: AppContext): DomainContext {
  return domainContext(c.get("services"), c.get("caller"), c.get("timings"));
}
