import { createMiddleware } from "hono/factory";
import { verifySession } from "../auth/session";
import { SIGN_IN_HEADER, verifySignIn } from "../auth/siwx";
import { verifyWalletHeader } from "../auth/wallet";
import type { Identification } from "../context";
import { ApiError } from "../errors";
import { decodePayment, verifyPayer } from "../payment/payload";
import { PAYMENT_SIGNATURE_HEADER } from "../payment/required";
import { paymentNetwork } from "../payment/settings";
import { ensureUsers } from "../users";
import type { AppContext, AppEnv } from "./app-env";
import { namedOwner } from "./owner";

/**
 * Verifies `x-wallet-auth`, `Authorization: Bearer <session token>` or `SIGN-IN-WITH-X` when
 * the request carries one (else, on a paid endpoint, the payer of a PAYMENT-SIGNATURE), and
 * records the outcome without failing: the rate limiter needs to know who is calling on every
 * path (public ones too), while only protected routes refuse a caller (requireWallet). A
 * claimed address is never trusted before its proof is checked.
 */
export const identify = createMiddleware<AppEnv>(async (c, next) => {
  const { config } = c.get("services");
  const header = c.req.header("x-wallet-auth");
  const bearer = c.req.header("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
  const signIn = c.req.header(SIGN_IN_HEADER);
  let identity: Identification = { status: "anonymous" };
  if (header) {
    const check = await c
      .get("timings")
      .measure("auth", () => verifyWalletHeader(header, config.AUTH_MESSAGE_PREFIX));
    identity = check.ok
      ? { status: "wallet", wallet: check.wallet }
      : { status: "invalid", reason: check.reason };
  } else if (bearer) {
    const subject = await verifySession(bearer.trim(), config.JWT_SECRET);
    identity = subject
      ? { status: "wallet", wallet: subject }
      : { status: "invalid", reason: "Invalid or expired session token" };
  } else if (signIn) {
    identity = await c.get("timings").measure("auth", () => identifySignIn(c, signIn));
  } else {
    // The spec's third way: on a paid endpoint, an x402 payment alone names the wallet (its
    // payer), once its signature is checked. Whether it pays is decided later (freeAllowance).
    const payment = c.req.header(PAYMENT_SIGNATURE_HEADER);
    if (payment && c.get("operation")?.price) {
      identity = await c.get("timings").measure("auth", () => identifyPayer(payment));
    }
  }
  c.set("identity", identity);
  await next();
});

/** A verified sign-in message names the wallet once its nonce is taken (one use only). */
async function identifySignIn(c: AppContext, header: string): Promise<Identification> {
  const network = paymentNetwork(c.get("services").config);
  const check = await verifySignIn(header, c.req.url, network);
  if (!check.ok) return { status: "invalid", reason: check.reason };
  const now = Math.floor(Date.now() / 1000);
  const claim = await c
    .get("metering")
    .wallet(check.wallet)
    .claimSignInNonce(check.nonce, check.nonceExpiresAt, now);
  if (claim === "claimed") return { status: "wallet", wallet: check.wallet };
  return {
    status: "invalid",
    reason:
      claim === "used"
        ? `${SIGN_IN_HEADER}: nonce already used; sign a new message`
        : `${SIGN_IN_HEADER} is not accepted: this service keeps no nonces (metering is off)`,
  };
}

async function identifyPayer(header: string): Promise<Identification> {
  const decoded = decodePayment(header);
  if (!decoded.ok) return { status: "invalid", reason: decoded.reason };
  const check = await verifyPayer(decoded.payment);
  return check.ok
    ? { status: "wallet", wallet: check.wallet }
    : { status: "invalid", reason: check.reason };
}

/**
 * Refuses a request without a verified wallet (401 with the reason identify found) and
 * resolves (creating on first sight) the user row every query is scoped by: the caller's, or
 * with `?owner=` the owner's, whose grant every statement then checks (middleware/owner.ts).
 * Both in one round trip, and none once this isolate knows them.
 */
export const requireWallet = createMiddleware<AppEnv>(async (c, next) => {
  const identity = c.get("identity");
  if (identity.status === "invalid") throw new ApiError("UNAUTHORIZED", identity.reason);
  if (identity.status === "anonymous") {
    throw new ApiError(
      "UNAUTHORIZED",
      "Authentication required: send x-wallet-auth, Authorization: Bearer <token> or SIGN-IN-WITH-X",
    );
  }
  const { wallet } = identity;
  const owner = namedOwner(c, wallet);
  const { db } = c.get("services");
  const wallets = owner ? [wallet, owner.wallet] : [wallet];
  const [userId, ownerId] = await c.get("timings").measure("user", () => ensureUsers(db, wallets));
  c.set(
    "caller",
    owner && ownerId
      ? { wallet, userId: ownerId, grant: { grantee: wallet.toLowerCase(), need: owner.need } }
      : { wallet, userId: userId as string },
  );
  await next();
});
