/**
 * The x402 extensions every 402 declares (PaymentRequired.extensions), built with
 * @x402/extensions the way x402's resource server builds them:
 *
 * - `bazaar`: how to call the resource (bazaar.ts), enriched for this request.
 * - `payment-identifier`: the client may put an idempotency id in its payment (not
 *   required); a retry with the same id gets the first answer and pays once (docs/payments.md).
 * - `sign-in-with-x`: a CAIP-122 challenge (domain, uri, nonce, issuedAt, expirationTime,
 *   the payment network as the supported chain) the client may sign and send as the
 *   SIGN-IN-WITH-X header to identify its wallet, as x-wallet-auth does (auth/siwx.ts).
 */
import type { PaymentRequired } from "@x402/core/types";
import {
  declarePaymentIdentifierExtension,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import {
  createSIWxResourceServerExtension,
  declareSIWxExtension,
  InMemorySIWxStorage,
  SIGN_IN_WITH_X,
} from "@x402/extensions/sign-in-with-x";
import { SIWX_MAX_AGE_SECONDS } from "../auth/siwx";
import { bazaarFor, httpRequestContext } from "./bazaar";
import type { PaidRoute } from "./paid-route";
import type { PaymentSettings } from "./settings";

const SIWX_STATEMENT =
  "Sign in to memory-service: identifies your wallet for this request, as x-wallet-auth does.";

/**
 * The sign-in challenge, from the package's resource server extension. Only its 402
 * enrichment is used (fresh nonce, issuedAt, domain and uri of this origin); the request and
 * settlement hooks that would read `storage` are not installed: signing in here identifies a
 * wallet (auth/siwx.ts), it never stands in for a payment.
 */
async function signInChallenge(
  settings: PaymentSettings,
  required: PaymentRequired,
  request: Request,
  transportContext: unknown,
): Promise<unknown> {
  const declared = declareSIWxExtension({
    network: settings.network,
    statement: SIWX_STATEMENT,
    expirationSeconds: SIWX_MAX_AGE_SECONDS,
  })[SIGN_IN_WITH_X];
  const extension = createSIWxResourceServerExtension({
    origin: new URL(request.url).origin,
    storage: new InMemorySIWxStorage(),
  });
  const challenge = (await extension.enrichPaymentRequiredResponse?.(declared, {
    requirements: required.accepts,
    resourceInfo: required.resource,
    error: required.error,
    paymentRequiredResponse: required,
    transportContext,
  })) as { info: { issuedAt: string; expirationTime?: string } } | undefined;
  // The package reads the clock twice (issuedAt, then expirationTime), so where the clock
  // moves between the two reads the window came out a millisecond longer than the 300 s
  // auth/siwx.ts accepts (seen in CI). Pin it to issuedAt.
  if (challenge?.info.expirationTime !== undefined) {
    const issued = Date.parse(challenge.info.issuedAt);
    challenge.info.expirationTime = new Date(issued + SIWX_MAX_AGE_SECONDS * 1000).toISOString();
  }
  return challenge;
}

/** The extensions of a 402 for `route`, answering `request`. */
export async function paymentRequiredExtensions(
  settings: PaymentSettings,
  route: PaidRoute,
  required: PaymentRequired,
  request: Request,
): Promise<Record<string, unknown>> {
  const context = httpRequestContext(request, route.contract);
  return {
    ...bazaarFor(route.bazaar, context),
    [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
    [SIGN_IN_WITH_X]: await signInChallenge(settings, required, request, context),
  };
}
