import type { Config, Env } from "../env";
import { ApiError } from "../errors";
import { type BucketLimit, type HitResult, windowStartOf } from "./limits";
import type {
  FreeGrant,
  FreeUsage,
  Meter,
  PaymentClaim,
  SignInNonceClaim as StoredNonceClaim,
} from "./meter-object";
import type { PaymentIdClaim, StoredResponse } from "./payment-ids";

export type { FreeGrant, FreeUsage, PaymentClaim } from "./meter-object";
export type { PaymentIdClaim, StoredResponse } from "./payment-ids";

/** A sign-in nonce claim; `unavailable` when nonces cannot be remembered (metering off). */
export type SignInNonceClaim = StoredNonceClaim | "unavailable";

/** Whom a request is counted against: a verified wallet, else the client IP. */
export type MeterIdentity = { kind: "wallet"; wallet: string } | { kind: "ip"; ip: string };

/** The Durable Object name of an identity; wallets are compared lower-case everywhere. */
export function meterKey(identity: MeterIdentity): string {
  return identity.kind === "wallet"
    ? `wallet:${identity.wallet.toLowerCase()}`
    : `ip:${identity.ip}`;
}

/** Rate limits and the free allowance, per identity. */
export interface Metering {
  /** Counts one request in every bucket of `limits`, or in none when one is full. */
  hit(identity: MeterIdentity, limits: BucketLimit[], nowMs: number): Promise<HitResult>;
  /** Takes one call from the wallet's free allowance of `total`, if any is left. */
  reserveFree(wallet: string, total: number): Promise<FreeGrant>;
  /** Gives back a reserved call whose request failed. */
  releaseFree(wallet: string): Promise<void>;
  freeStatus(wallet: string, total: number): Promise<FreeUsage>;
  /**
   * Takes an x402 authorization nonce of `payer` for one request (replay protection, see
   * the payment_nonce table in meter-object.ts); `expiresAt` and `nowSeconds` in unix s.
   */
  claimPayment(
    payer: string,
    nonce: string,
    expiresAt: number,
    nowSeconds: number,
  ): Promise<PaymentClaim>;
  settlePayment(payer: string, nonce: string): Promise<void>;
  releasePayment(payer: string, nonce: string): Promise<void>;
  /**
   * Takes an x402 payment identifier of `payer` for the request whose fingerprint is given
   * (idempotency, see the payment_id table in meter-object.ts); times in unix s.
   */
  claimPaymentId(
    payer: string,
    id: string,
    fingerprint: string,
    pendingUntil: number,
    nowSeconds: number,
  ): Promise<PaymentIdClaim>;
  completePaymentId(
    payer: string,
    id: string,
    response: StoredResponse,
    expiresAt: number,
  ): Promise<void>;
  releasePaymentId(payer: string, id: string): Promise<void>;
  /** Takes the nonce of `wallet`'s sign-in-with-x message, once (sign_in_nonce table). */
  claimSignInNonce(
    wallet: string,
    nonce: string,
    expiresAt: number,
    nowSeconds: number,
  ): Promise<SignInNonceClaim>;
}

/** The real thing: one Meter object per identity. */
export class DurableObjectMetering implements Metering {
  constructor(private readonly namespace: DurableObjectNamespace<Meter>) {}

  private stub(identity: MeterIdentity) {
    return this.namespace.get(this.namespace.idFromName(meterKey(identity)));
  }

  hit(identity: MeterIdentity, limits: BucketLimit[], nowMs: number): Promise<HitResult> {
    return this.stub(identity).hitAll(limits, nowMs);
  }

  reserveFree(wallet: string, total: number): Promise<FreeGrant> {
    return this.stub({ kind: "wallet", wallet }).reserveFree(total);
  }

  async releaseFree(wallet: string): Promise<void> {
    await this.stub({ kind: "wallet", wallet }).releaseFree();
  }

  freeStatus(wallet: string, total: number): Promise<FreeUsage> {
    return this.stub({ kind: "wallet", wallet }).freeStatus(total);
  }

  claimPayment(
    payer: string,
    nonce: string,
    expiresAt: number,
    nowSeconds: number,
  ): Promise<PaymentClaim> {
    return this.stub({ kind: "wallet", wallet: payer }).claimPayment(nonce, expiresAt, nowSeconds);
  }

  async settlePayment(payer: string, nonce: string): Promise<void> {
    await this.stub({ kind: "wallet", wallet: payer }).settlePayment(nonce);
  }

  async releasePayment(payer: string, nonce: string): Promise<void> {
    await this.stub({ kind: "wallet", wallet: payer }).releasePayment(nonce);
  }

  claimPaymentId(
    payer: string,
    id: string,
    fingerprint: string,
    pendingUntil: number,
    nowSeconds: number,
  ): Promise<PaymentIdClaim> {
    return this.stub({ kind: "wallet", wallet: payer }).claimPaymentId(
      id,
      fingerprint,
      pendingUntil,
      nowSeconds,
    );
  }

  async completePaymentId(
    payer: string,
    id: string,
    response: StoredResponse,
    expiresAt: number,
  ): Promise<void> {
    await this.stub({ kind: "wallet", wallet: payer }).completePaymentId(id, response, expiresAt);
  }

  async releasePaymentId(payer: string, id: string): Promise<void> {
    await this.stub({ kind: "wallet", wallet: payer }).releasePaymentId(id);
  }

  claimSignInNonce(
    wallet: string,
    nonce: string,
    expiresAt: number,
    nowSeconds: number,
  ): Promise<SignInNonceClaim> {
    return this.stub({ kind: "wallet", wallet }).claimSignInNonce(nonce, expiresAt, nowSeconds);
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
  async hit(_identity: MeterIdentity, limits: BucketLimit[], nowMs: number): Promise<HitResult> {
    const [first] = limits;
    if (!first) return { allowed: true, limit: 0, remaining: 0, resetAt: 0 };
    const resetAt = windowStartOf(nowMs, first.windowSeconds) + first.windowSeconds;
    return { allowed: true, limit: first.limit, remaining: first.limit, resetAt };
  }

  async reserveFree(_wallet: string, total: number): Promise<FreeGrant> {
    return { granted: true, used: 0, remaining: total };
  }

  async releaseFree(_wallet: string): Promise<void> {}

  async freeStatus(_wallet: string, total: number): Promise<FreeUsage> {
    return { used: 0, remaining: total };
  }

  async claimPayment(): Promise<PaymentClaim> {
    return { claimed: true };
  }

  async settlePayment(): Promise<void> {}

  async releasePayment(): Promise<void> {}

  async claimPaymentId(): Promise<PaymentIdClaim> {
    return { outcome: "claimed" };
  }

  async completePaymentId(): Promise<void> {}

  async releasePaymentId(): Promise<void> {}

  async claimSignInNonce(): Promise<SignInNonceClaim> {
    return "unavailable";
  }
}

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
