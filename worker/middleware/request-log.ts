/**
 * Every request's id, its Server-Timing, and its one log line. The id is the service's own: a
 * client's header (cf-ray, x-request-id) never becomes one, so what a log line or an error
 * body names was made here.
 *
 * The line (`event: "request"`, docs/operations.md) says what an operator filters on in
 * Workers Logs, and nothing a caller sent: the declared operation, never the path (it holds
 * memory ids, and an unknown path can hold anything), the wallet as its tag (lib/log.ts),
 * never its address, and no body, header or signature. A payment's refusal carries the reason
 * its answer gives, which is the service's own text. It is an object, so Workers Logs
 * indexes its fields (lib/log.ts).
 */
import { createMiddleware } from "hono/factory";
import type { Identification } from "../context";
import { innerCallsOf } from "../lib/inner-call";
import { redact, walletTag } from "../lib/log";
import { Timings } from "../lib/timing";
import { PAYMENT_SIGNATURE_HEADER } from "../payment/required";
import type { AppContext, AppEnv, PaymentOutcome } from "./app-env";

/**
 * How a request was paid for: `none` when nothing was charged (a free operation, or a paid
 * one answered before its charge point: 401, 422, 429); a 402 is `required` (no payment was
 * sent and no free call or credit was left) or `refused` (the payment sent was refused);
 * else what the charge point recorded (PaymentOutcome).
 */
export type LoggedPayment = PaymentOutcome | "none" | "required" | "refused";

/** A request's log line. */
export interface RequestLine {
  event: "request";
  request_id: string;
  /** The declared operation's id; null for a path no operation declares. */
  route: string | null;
  method: string;
  status: number;
  /** Until the response was ready, to 0.1 ms. */
  duration_ms: number;
  /** How the caller identified: a verified wallet, a proof that failed, or none. */
  auth: Identification["status"] | null;
  /** The verified wallet's tag (lib/log.ts walletTag); null without one. */
  wallet: string | null;
  payment: LoggedPayment;
  /**
   * Why a payment was refused, or why its settlement's outcome was unknown: the reason its
   * answer gives (`error.details.reason`: the service's own text or the facilitator's code).
   */
  reason?: string;
  /** An MCP tool call, sent by the Worker to itself for an /mcp request (lib/inner-call.ts). */
  inner?: true;
}

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = crypto.randomUUID();
  const timings = new Timings();
  c.set("requestId", requestId);
  c.set("timings", timings);
  const started = performance.now();
  await next();
  const ms = performance.now() - started;
  timings.add("total", ms);
  c.header("x-request-id", requestId);
  c.header("server-timing", timings.header());
  if (c.env.REQUEST_LOG !== "off") console.log(await requestLine(c, ms));
});

async function requestLine(c: AppContext, ms: number): Promise<RequestLine> {
  // Unset when the request failed before identify ran (a configuration error).
  const identity: Identification | undefined = c.get("identity");
  const line: RequestLine = {
    event: "request",
    request_id: c.get("requestId"),
    route: c.get("operation")?.operationId ?? null,
    method: c.req.method,
    status: c.res.status,
    duration_ms: Math.round(ms * 10) / 10,
    auth: identity?.status ?? null,
    wallet: identity?.status === "wallet" ? await walletTag(identity.wallet) : null,
    payment: paymentOf(c),
  };
  if (line.payment === "refused" || line.payment === "unknown-outcome") {
    const reason = await reasonOf(c.res);
    if (reason !== undefined) line.reason = reason;
  }
  if (innerCallsOf(c.env)) line.inner = true;
  return line;
}

/** The `error.details.reason` of an error answer (a copy of it is read), shortened. */
async function reasonOf(res: Response): Promise<string | undefined> {
  const body: unknown = await res
    .clone()
    .json()
    .catch(() => undefined);
  const reason = (body as { error?: { details?: { reason?: unknown } } } | undefined)?.error
    ?.details?.reason;
  return typeof reason === "string" ? redact(reason).slice(0, MAX_REASON) : undefined;
}

const MAX_REASON = 200;

/**
 * A 402 only ever comes from the charge point, and charges nothing: it is decided here rather
 * than at each of the payment path's refusals.
 */
function paymentOf(c: AppContext): LoggedPayment {
  if (c.res.status === 402) return c.req.header(PAYMENT_SIGNATURE_HEADER) ? "refused" : "required";
  return c.get("payment") ?? "none";
}
