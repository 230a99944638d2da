/**
 * The 402 answer (clients.md, "Payment"): status 402, our JSON error body, and the header
 * `PAYMENT-REQUIRED` = base64 of the x402 v2 PaymentRequired object
 * `{x402Version: 2, error?, resource: {url, description, mimeType}, accepts: [req]}` with
 * `req = {scheme: "exact", network, asset, amount, payTo, maxTimeoutSeconds, extra: {name,
 * version}}`, and `extensions` (bazaar, payment-identifier, sign-in-with-x: extensions.ts).
 * It is built from configuration and the contract alone, so a plain 402 never waits for the
 * facilitator.
 */
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ApiError } from "../errors";
import type { Price } from "../meter/prices";
import { paymentRequiredExtensions } from "./extensions";
import type { PaidRoute } from "./paid-route";
import type { TransferMethod } from "./payload";
import {
  MAX_TIMEOUT_SECONDS,
  type PaymentSettings,
  PRICE_DECIMALS,
  PRICE_SYMBOL,
} from "./settings";

export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_SIGNATURE_HEADER = "PAYMENT-SIGNATURE";
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";
/**
 * On a 502 whose payment's outcome is unknown: the payment's authorization nonce (its key in
 * the payer's Meter), which the background check and a retry look it up by.
 */
export const PAYMENT_UNSETTLED_HEADER = "X-Payment-Unsettled";

/** Said in the header's `error` when no X402_PAY_TO is configured. */
export const PAYMENTS_OFF = "Payments are not configured on this service";

/**
 * The ways to pay for a call at `price`, or none when payments are off: the exact scheme with
 * EIP-3009 (first: a USDC signature, gasless, nothing to approve) and with Permit2 (any ERC-20
 * the payer has approved Permit2 for once; the x402 exact Permit2 proxy spends it).
 */
export function requirementsFor(settings: PaymentSettings, price: Price): PaymentRequirements[] {
  if (!settings.payTo) return [];
  const requirement = {
    scheme: "exact",
    network: settings.network,
    asset: settings.asset,
    amount: price.atomic,
    payTo: settings.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
  };
  const domain = { name: settings.assetName, version: settings.assetVersion };
  return [
    { ...requirement, extra: domain },
    { ...requirement, extra: { ...domain, assetTransferMethod: PERMIT2 } },
  ];
}

/** `extra.assetTransferMethod` of the Permit2 requirement (@x402/evm's exact scheme). */
export const PERMIT2 = "permit2";

/** The requirement of `requirements` that a payment of this transfer method answers. */
export function requirementOfMethod(
  requirements: PaymentRequirements[],
  method: TransferMethod,
): PaymentRequirements | undefined {
  return requirements.find(
    (r) => (r.extra?.assetTransferMethod === PERMIT2 ? "permit2" : "eip3009") === method,
  );
}

/**
 * A paid call being answered: the request, the declared route it is for, and what this call
 * costs (the route's price, times the call's units: an import of 250 memories is three).
 */
export interface PaidResource {
  request: Request;
  route: PaidRoute;
  price: Price;
}

/** The price as the 402 body and GET /.well-known/x402 state it, with or without payTo. */
export function priceDetails(settings: PaymentSettings, price: Price) {
  return {
    amount: price.atomic,
    usd: price.usd,
    asset: settings.asset,
    symbol: PRICE_SYMBOL,
    decimals: PRICE_DECIMALS,
    network: settings.network,
  };
}

export async function paymentRequiredObject(
  settings: PaymentSettings,
  resource: PaidResource,
  error?: string,
): Promise<PaymentRequired> {
  const { request, route, price } = resource;
  const accepts = requirementsFor(settings, price);
  const reason = error ?? (accepts.length === 0 ? PAYMENTS_OFF : undefined);
  const path = new URL(request.url).pathname;
  const cost =
    price.atomic === route.price.atomic
      ? `${price.usd} ${PRICE_SYMBOL} per call`
      : `${price.usd} ${PRICE_SYMBOL} for this call (${route.price.usd} per ${route.per ?? "call"})`;
  const required: PaymentRequired = {
    x402Version: 2,
    ...(reason ? { error: reason } : {}),
    resource: {
      url: request.url,
      description: `${request.method} ${path}: ${cost}`,
      mimeType: "application/json",
    },
    accepts,
  };
  required.extensions = await paymentRequiredExtensions(settings, route, required, request);
  return required;
}

export interface RefusalOptions {
  /** The message of a plain 402 (no payment sent), when it is not the allowance's. */
  message?: string;
  /** Why a payment that was sent is not accepted (verification, replay, settlement). */
  reason?: string;
  /** The facilitator's longer explanation, when it gave one. */
  detail?: string;
  /** Extra response headers, e.g. PAYMENT-RESPONSE of a failed settlement. */
  headers?: Record<string, string>;
}

/**
 * The 402 as an ApiError (the app's onError renders body and headers). Without a reason it
 * is the plain "pay to continue" answer; with one, the refusal of the payment that was sent.
 */
export async function paymentRequiredError(
  settings: PaymentSettings,
  resource: PaidResource,
  opts: RefusalOptions = {},
): Promise<ApiError> {
  const required = await paymentRequiredObject(settings, resource, opts.reason);
  const details: Record<string, unknown> = { price: priceDetails(settings, resource.price) };
  if (opts.reason) details.reason = opts.reason;
  if (opts.detail) details.detail = opts.detail;
  const message = opts.reason
    ? `Payment not accepted: ${opts.reason}`
    : (opts.message ?? "Free allowance used: pay per request with x402");
  return new ApiError("PAYMENT_REQUIRED", message, details, {
    [PAYMENT_REQUIRED_HEADER]: encodePaymentRequiredHeader(required),
    ...opts.headers,
  });
}
