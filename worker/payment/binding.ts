/**
 * What a payment pays for. The signed authorization (EIP-3009 or Permit2) names the payer, the
 * payee, the amount and its validity, not the call; the payload's `resource` (which the client
 * copies from the 402) does, and a payment is spent on the URL it names, by the wallet that
 * signed it. A paid URL is paid on one method only (its other methods are free), so the URL
 * names the method too. Amount, network, asset and payTo are the requirement's to match
 * (middleware/payment.ts).
 */
import type { DecodedPayment } from "./payload";

/** Why `payment` cannot pay for `request` by `caller`, or undefined when it can. */
export function bindingProblem(
  request: Request,
  caller: string,
  payment: DecodedPayment,
): string | undefined {
  const here = new URL(request.url);
  const target = `${request.method} ${trimSlash(here.pathname)}${here.search}`;
  const named = payment.payload.resource?.url;
  if (!named) return `the payment names no resource: it must be for ${target}`;
  let url: URL;
  try {
    url = new URL(named, here);
  } catch {
    return `the payment's resource is not a URL: it must be for ${target}`;
  }
  // The path and query; the host may differ behind a proxy or a custom domain.
  if (trimSlash(url.pathname) + url.search !== trimSlash(here.pathname) + here.search) {
    return `the payment is for ${trimSlash(url.pathname)}${url.search}, not for ${target}`;
  }
  if (caller.toLowerCase() !== payment.payer) {
    return `the payment is signed by ${payment.payer}, but the request is authenticated as ${caller.toLowerCase()}`;
  }
  return undefined;
}

const trimSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, "") : path);
