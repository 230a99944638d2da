/**
 * The middleware's side of metering: a request's rate limits, free allowance, payment ids
 * and sign-in nonces, asked of the Meter Durable Object (meter/) of the identity it counts
 * against, or of nothing when metering is off (METERING=off, or no METER binding).
 */
import type { Config, Env } from "../env";
import { ApiError } from "../errors";
import { type BucketLimit, windowStartOf } from "../meter/limits";
import type {
  FreeAsk,
  FreeGrant,
  FreeUsage,
  Meter,
  MeteredHit,
  PaymentClaim,
  SignInNonceClaim as StoredNonceClaim,
  UnsettledPayment,
  UnsettledState,
} from "../meter/meter-object";
import type { PaymentIdClaim, StoredResponse } from "../meter/payment-ids";

export type {
  FreeAsk,
  FreeGrant,
  FreeUsage,
  MeteredHit,
  PaymentClaim,
  UnsettledPayment,
  UnsettledState,
} from "../meter/meter-object";
export type { PaymentIdClaim, StoredResponse } from "../meter/payment-ids";

/** A sign-in nonce claim; `unavailable` when nonces cannot be remembered (metering off). */
export type SignInNonceClaim = StoredNonceClaim | "unavailable";

/** A call taken from a wallet's allowance or credit, and the IP's count taken with it. */
export interface TakenCall {
  wallet: string;
  grant: FreeGrant;
  /** The free-per-ip count taken beside it (FREE_CALLS_PER_IP_PER_DAY), given back with it. */
  ip?: { ip: string; windowStart: number; count: number };
  /** Why nothing was taken, when nothing was: the IP's daily cap (else the allowance). */
  refusedBy?: "ip";
}

/** Whom a request is counted against: a verified wallet, else the client IP. */
export type MeterIdentity = { kind: "wallet"; wallet: string } | { kind: "ip"; ip: string };

/** The Durable Object name of an identity; wallets are compared lower-case everywhere. */
export function meterKey(identity: MeterIdentity): string {
  return identity.kind === "wallet"
    ? `wallet:${identity.wallet.toLowerCase()}`
    : `ip:${identity.ip}`;
}

/** Rate limits per identity; the rest of metering per wallet (`wallet`). */
export interface Metering {
  /**
   * Counts `count` requests (default 1) in every bucket of `limits`, or in none when one is
   * full; with `free`, an allowed request of a wallet also takes what it asks of the allowance
   * (WalletMeter.reserveFree) in the same call.
   */
  hit(
    identity: MeterIdentity,
    limits: BucketLimit[],
    nowMs: number,
    free?: FreeAsk,
    count?: number,
  ): Promise<MeteredHit>;
  /** Gives back `count` requests counted in `bucket`'s window that starts at `windowStart`. */
  unhit(identity: MeterIdentity, bucket: string, windowStart: number, count: number): Promise<void>;
  /** What is kept for one wallet (compared lower-case). */
  wallet(wallet: string): WalletMeter;
}

/** One wallet's free allowance, payment nonces and identifiers, and sign-in nonces. */
export interface WalletMeter {
  /**
   * Takes `count` calls (default 1) from the wallet's free allowance of `total` if that many
   * are left, else `creditPrice` atomic units of its credit (meter-object.ts).
   */
  reserveFree(total: number, count?: number, creditPrice?: number): Promise<FreeGrant>;
  /** Gives back reserved calls whose request failed; answers the calls used after it. */
  releaseFree(count?: number): Promise<{ used: number }>;
  /** Credits the wallet with `atomic` units: a paid call failed after its payment settled. */
  addCredit(atomic: number): Promise<{ credit: number }>;
  freeStatus(total: number): Promise<FreeUsage>;
  /**
   * Takes an x402 authorization nonce of this payer for one request (replay protection, see
   * the payment_nonce table in meter-object.ts); `expiresAt` and `nowSeconds` in unix s.
   */
  claimPayment(nonce: string, expiresAt: number, nowSeconds: number): Promise<PaymentClaim>;
  settlePayment(nonce: string): Promise<void>;
  releasePayment(nonce: string): Promise<void>;
  /**
   * Takes an x402 payment identifier of this payer for the request whose fingerprint is
   * given (idempotency, see the payment_id table in meter-object.ts); times in unix s.
   */
  claimPaymentId(
    id: string,
    fingerprint: string,
    pendingUntil: number,
    nowSeconds: number,
  ): Promise<PaymentIdClaim>;
  completePaymentId(id: string, response: StoredResponse, expiresAt: number): Promise<void>;
  releasePaymentId(id: string): Promise<void>;
  /** An answered identifier taken again by a retry that answers anew (payment-ids.ts). */
  reopenPaymentId(id: string, pendingUntil: number): Promise<boolean>;
  /**
   * Keeps a payment whose settlement's outcome is unknown until the chain tells (the
   * unsettled_payment table in meter-object.ts): credited if it paid, released if it expired.
   */
  keepUnsettled(payment: UnsettledPayment, nowMs: number): Promise<void>;
  unsettledState(nonce: string): Promise<UnsettledState | undefined>;
  /** A still-unknown kept payment checked on chain now; its state after. */
  checkUnsettled(nonce: string): Promise<UnsettledState | undefined>;
  resolveUnsettled(
    nonce: string,
    outcome: "paid" | "expired",
    nowMs: number,
  ): Promise<UnsettledState | undefined>;
  /** A retry served by the credit a kept payment became. */
  serveUnsettled(nonce: string, nowMs: number): Promise<boolean>;
  /** Takes the nonce of this wallet's sign-in-with-x message, once (sign_in_nonce table). */
  claimSignInNonce(nonce: string, expiresAt: number, nowSeconds: number): Promise<SignInNonceClaim>;
}

/** The real thing: one Meter object per identity, whose methods are the wallet's. */
export class DurableObjectMetering implements Metering {
  constructor(private readonly namespace: DurableObjectNamespace<Meter>) {}

  private stub(identity: MeterIdentity) {
    return this.namespace.get(this.namespace.idFromName(meterKey(identity)));
  }

  hit: Metering["hit"] = (identity, limits, nowMs, free, count) =>
    this.stub(identity).hitAll(limits, nowMs, free, count);

  unhit: Metering["unhit"] = (identity, bucket, windowStart, count) =>
    this.stub(identity).unhit(bucket, windowStart, count);

  wallet(wallet: string): WalletMeter {
    return this.stub({ kind: "wallet", wallet });
  }
}

/**
 * Metering switched off (METERING=off, or no METER binding): nothing is limited and the free
 * allowance never runs out. The rate-limit headers still describe the nominal window, with
 * nothing used, so clients that read them keep working. Payment nonces are not remembered
 * either: a replayed payment is then caught by the facilitator (its verification simulates
 * the transfer, which the token refuses for a used nonce), and a replay racing the original
 * by the token contract at settlement, after its handler ran. Payment identifiers are not
 * remembered (each request runs and pays on its own), and sign-in-with-x is refused: nothing
 * else would stop a signed message from being replayed.
 */
export class NoopMetering implements Metering {
  async hit(
    _identity: MeterIdentity,
    limits: BucketLimit[],
    nowMs: number,
    ask?: FreeAsk,
  ): Promise<MeteredHit> {
    const free = ask === undefined ? {} : { free: await NOTHING_KEPT.reserveFree(ask.total) };
    const [first] = limits;
    if (!first) return { allowed: true, limit: 0, remaining: 0, resetAt: 0, ...free };
    const resetAt = windowStartOf(nowMs, first.windowSeconds) + first.windowSeconds;
    return { allowed: true, limit: first.limit, remaining: first.limit, resetAt, ...free };
  }

  async unhit(): Promise<void> {}

  wallet(_wallet: string): WalletMeter {
    return NOTHING_KEPT;
  }
}

const NOTHING_KEPT: WalletMeter = {
  reserveFree: async (total) => ({ granted: true, used: 0, remaining: total }),
  releaseFree: async () => ({ used: 0 }),
  addCredit: async () => ({ credit: 0 }),
  freeStatus: async (total) => ({ used: 0, remaining: total }),
  claimPayment: async () => ({ claimed: true }),
  settlePayment: async () => {},
  releasePayment: async () => {},
  claimPaymentId: async () => ({ outcome: "claimed" }),
  completePaymentId: async () => {},
  releasePaymentId: async () => {},
  keepUnsettled: async () => {},
  unsettledState: async () => undefined,
  checkUnsettled: async () => undefined,
  reopenPaymentId: async () => false,
  resolveUnsettled: async () => undefined,
  serveUnsettled: async () => false,
  claimSignInNonce: async () => "unavailable",
};

/**
 * METERING=on needs the METER binding (a missing one is a clear 500, not a silently free
 * service); METERING=off disables metering; unset means on exactly when the binding exists.
 */
export function createMetering(config: Config, env: Env): Metering {
  if (config.METERING === "off") return new NoopMetering();
  if (env.METER) return new DurableObjectMetering(env.METER);
  if (config.METERING === "on") {
    console.error("configuration error: METERING=on but the METER binding is missing");
    throw new ApiError("INTERNAL_ERROR", "Service is misconfigured");
  }
  return new NoopMetering();
}
