/**
 * Meter: one SQLite-backed Durable Object per identity, named `wallet:<lower-case address>`
 * or `ip:<client ip>` (see meterKey in middleware/metering.ts). It holds that identity's
 * rate-limit counts and, for wallets, the free allowance, credit and nonces. Calls arrive by
 * RPC on the stub.
 *
 * Storage (SQL API; this is the one place every key is documented):
 *
 *   rate_window(bucket TEXT PRIMARY KEY, window_start INTEGER, count INTEGER)
 *     One row per bucket ("all", "llm"; in IP objects also "free-per-ip", a day's free calls
 *     under FREE_CALLS_PER_IP_PER_DAY): how many requests were counted in the fixed window
 *     that starts at `window_start` (unix seconds). A hit in a later window overwrites the
 *     row, so the table never grows beyond one row per bucket.
 *
 *   free_tier(id INTEGER PRIMARY KEY CHECK (id = 1), used INTEGER)
 *     Wallet objects only: the single row counts the paid calls taken from the free
 *     allowance (reserved, minus those given back because the call failed). Absent = 0.
 *
 *   credit(id INTEGER PRIMARY KEY CHECK (id = 1), atomic INTEGER)
 *     Wallet objects only: USDC (atomic units, 6 decimals) the wallet paid for calls that
 *     then failed after their payment settled (middleware/charge.ts). A later paid call
 *     without a payment is served from it before a 402 asks for one. Absent = 0.
 *
 *   payment_nonce(nonce TEXT PRIMARY KEY, state TEXT, expires_at INTEGER)
 *     Wallet objects only, for the wallet as payer: the authorization nonces of x402 payments
 *     it signed that a request is using (EIP-3009's in lower-case hex, Permit2's as
 *     `permit2:<decimal>`): 'pending' from before verification until settlement, 'settled'
 *     after. A nonce found here is a replay, refused before anything runs. A payment given up
 *     before it settled (nothing transferred) deletes its row, so the same authorization can
 *     be sent again. Rows are pruned once `expires_at` (unix s: validBefore or deadline, at
 *     most a day ahead) is past, when the chain refuses the authorization itself. See
 *     nonces.ts.
 *
 *   payment_id(id TEXT PRIMARY KEY, fingerprint TEXT, state TEXT, status INTEGER, body TEXT,
 *              headers TEXT, expires_at INTEGER)
 *     Wallet objects only, for the wallet as payer: x402 payment identifiers (the
 *     `payment-identifier` extension's idempotency ids, 16-128 characters). `fingerprint` is
 *     the SHA-256 of the request that holds the id (caller, method, path and query, body).
 *     'pending' while that request runs (expires_at: a 10-minute lease), 'done' once it was
 *     answered after paying: status, JSON body (null above 64 KiB) and headers (the
 *     PAYMENT-RESPONSE receipt) of that answer, kept for an hour (expires_at). A request
 *     given up without paying deletes its 'pending' row. See payment-ids.ts.
 *
 *   unsettled_payment(nonce TEXT PRIMARY KEY, authorization TEXT, rpc_url TEXT,
 *                     transaction_hash TEXT, amount INTEGER, valid_before INTEGER, state TEXT,
 *                     next_check_at INTEGER, checks INTEGER, resolved_at INTEGER)
 *     Wallet objects only, for the wallet as payer: payments whose settlement's outcome was
 *     unknown when their call answered 502 (payment/outcome.ts), keyed like payment_nonce.
 *     `authorization` is the JSON AuthorizationRef the chain is asked about (at `rpc_url`),
 *     `amount` the price credited when it shows the authorization used, `valid_before` (unix
 *     s) when an unused one can no longer be. 'unknown' until the object's alarm (checks at
 *     `next_check_at`, ms, backing off) or a retry resolves it: 'credited', 'served' (a retry
 *     was served by it) or 'expired' (nothing moved; its nonce released). Resolved rows are
 *     pruned a day after `resolved_at` (ms). See unsettled.ts.
 *
 *   sign_in_nonce(nonce TEXT PRIMARY KEY, expires_at INTEGER)
 *     Wallet objects only, for the wallet as signer: nonces of sign-in-with-x messages
 *     (auth/siwx.ts) already used to identify a request, and `session:<timestamp>` for each
 *     signed timestamp already exchanged at POST /auth/session; each is accepted once. Rows
 *     are pruned once `expires_at` (issuedAt, or the timestamp, plus 300 s) is past.
 *
 * Every method is synchronous: it runs to completion without yielding, so calls from
 * concurrent requests are serialised by the object and each read-modify-write is atomic. The
 * one exception is the alarm, which reads the chain between its synchronous steps.
 */
import { DurableObject } from "cloudflare:workers";
import { walletTag } from "../lib/log";
import { authorizationUsed } from "../payment/chain-state";
import {
  addCredit,
  CREDIT_TABLE,
  FREE_TIER_TABLE,
  type FreeAsk,
  type FreeGrant,
  type FreeUsage,
  freeStatus,
  releaseFree,
  reserveFree,
} from "./allowance";
import { type BucketLimit, evaluateHit, type HitResult, type WindowCount } from "./limits";
import {
  claimPayment,
  claimSignInNonce,
  PAYMENT_NONCE_TABLE,
  type PaymentClaim,
  releasePayment,
  SIGN_IN_NONCE_TABLE,
  type SignInNonceClaim,
  settlePayment,
} from "./nonces";
import {
  claimPaymentId,
  completePaymentId,
  PAYMENT_ID_TABLE,
  type PaymentIdClaim,
  releasePaymentId,
  reopenPaymentId,
  type StoredResponse,
} from "./payment-ids";
import {
  checkAgainLater,
  type DueUnsettled,
  keepUnsettled,
  nextCheckAt,
  resolveUnsettled,
  serveUnsettled,
  stillUnknown,
  UNSETTLED_TABLE,
  type UnsettledPayment,
  type UnsettledState,
  unsettledRow,
  unsettledState,
} from "./unsettled";

/** An unused authorization counts as expired this long after its validBefore (s): clock skew. */
const EXPIRY_MARGIN_SECONDS = 120;

/** A rate-limit verdict, and the free call taken with it when one was asked for. */
export type MeteredHit = HitResult & { free?: FreeGrant };

export type { FreeAsk, FreeGrant, FreeUsage } from "./allowance";
export type { PaymentClaim, SignInNonceClaim } from "./nonces";
export type { UnsettledPayment, UnsettledState } from "./unsettled";

type WindowRow = { bucket: string; window_start: number; count: number };

/** The object reads no binding, so it does not name the Worker's Env (which names it). */
type NoBindings = Record<string, never>;

export class Meter extends DurableObject<NoBindings> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: NoBindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      `CREATE TABLE IF NOT EXISTS rate_window (
         bucket TEXT PRIMARY KEY,
         window_start INTEGER NOT NULL,
         count INTEGER NOT NULL
       )`,
    );
    this.sql.exec(FREE_TIER_TABLE);
    this.sql.exec(PAYMENT_NONCE_TABLE);
    this.sql.exec(CREDIT_TABLE);
    this.sql.exec(PAYMENT_ID_TABLE);
    this.sql.exec(SIGN_IN_NONCE_TABLE);
    this.sql.exec(UNSETTLED_TABLE);
  }

  /** Counts one request in `bucket` unless its window is full (a refusal consumes nothing). */
  hit(bucket: string, limit: number, windowSeconds: number, nowMs: number): HitResult {
    return this.hitAll([{ bucket, limit, windowSeconds }], nowMs);
  }

  /**
   * `count` requests counted in several buckets at once, all or nothing (see evaluateHit);
   * with `free`, an allowed request also takes what it asks of the allowance (reserveFree):
   * one call to this object where a paid request made two, one after the other.
   */
  hitAll(limits: BucketLimit[], nowMs: number, free?: FreeAsk, count = 1): MeteredHit {
    const stored = new Map<string, WindowCount>();
    for (const row of this.sql.exec<WindowRow>(
      "SELECT bucket, window_start, count FROM rate_window",
    )) {
      stored.set(row.bucket, {
        bucket: row.bucket,
        windowStart: row.window_start,
        count: row.count,
      });
    }
    const { result, updates } = evaluateHit(limits, stored, nowMs, count);
    for (const u of updates) {
      this.sql.exec(
        `INSERT INTO rate_window (bucket, window_start, count) VALUES (?, ?, ?)
         ON CONFLICT (bucket) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
        u.bucket,
        u.windowStart,
        u.count,
      );
    }
    if (!result.allowed || free === undefined) return result;
    return { ...result, free: this.reserveFree(free.total, free.count, free.creditPrice) };
  }

  /** Gives back `count` requests counted in `bucket`'s window starting at `windowStart`. */
  unhit(bucket: string, windowStart: number, count: number): void {
    this.sql.exec(
      "UPDATE rate_window SET count = max(0, count - ?) WHERE bucket = ? AND window_start = ?",
      count,
      bucket,
      windowStart,
    );
  }

  /** Takes calls from the free allowance, else from the credit (allowance.ts). */
  reserveFree(total: number, count = 1, creditPrice?: number): FreeGrant {
    return reserveFree(this.sql, total, count, creditPrice);
  }

  /** Gives back `count` reserved calls (the paid call failed). */
  releaseFree(count = 1): { used: number } {
    return releaseFree(this.sql, count);
  }

  /** Adds to the wallet's credit (a paid call failed after its payment settled). */
  addCredit(atomic: number): { credit: number } {
    return addCredit(this.sql, atomic);
  }

  freeStatus(total: number): FreeUsage {
    return freeStatus(this.sql, total);
  }

  /** Takes an authorization nonce for one paid request (nonces.ts). */
  claimPayment(nonce: string, expiresAt: number, nowSeconds: number): PaymentClaim {
    return claimPayment(this.sql, nonce, expiresAt, nowSeconds);
  }

  /** The payment of a claimed nonce was settled on chain. */
  settlePayment(nonce: string): void {
    settlePayment(this.sql, nonce);
  }

  /** A claimed payment was given up before settling: its nonce may be used again. */
  releasePayment(nonce: string): void {
    releasePayment(this.sql, nonce);
  }

  /** Takes a payment identifier for one request (see payment-ids.ts). */
  claimPaymentId(
    id: string,
    fingerprint: string,
    pendingUntil: number,
    nowSeconds: number,
  ): PaymentIdClaim {
    return claimPaymentId(this.sql, id, fingerprint, pendingUntil, nowSeconds);
  }

  completePaymentId(id: string, response: StoredResponse, expiresAt: number): void {
    completePaymentId(this.sql, id, response, expiresAt);
  }

  releasePaymentId(id: string): void {
    releasePaymentId(this.sql, id);
  }

  reopenPaymentId(id: string, pendingUntil: number): boolean {
    return reopenPaymentId(this.sql, id, pendingUntil);
  }

  /** Keeps a payment whose settlement's outcome is unknown, and checks the chain for it. */
  async keepUnsettled(payment: UnsettledPayment, nowMs: number): Promise<void> {
    const due = keepUnsettled(this.sql, payment, nowMs);
    await this.ctx.storage.setAlarm(due);
  }

  unsettledState(nonce: string): UnsettledState | undefined {
    return unsettledState(this.sql, nonce);
  }

  /** The chain's answer for a kept payment (unsettled.ts). */
  resolveUnsettled(
    nonce: string,
    outcome: "paid" | "expired",
    nowMs: number,
  ): UnsettledState | undefined {
    return resolveUnsettled(this.sql, nonce, outcome, nowMs);
  }

  /** A retry served by the credit a kept payment became (unsettled.ts). */
  serveUnsettled(nonce: string, nowMs: number): boolean {
    return serveUnsettled(this.sql, nonce, nowMs);
  }

  /**
   * A retry's look at its kept payment: a still-unknown one is checked on chain now, as the
   * alarm would; the answer is its state after.
   */
  async checkUnsettled(nonce: string): Promise<UnsettledState | undefined> {
    const payment = unsettledRow(this.sql, nonce);
    if (payment) await this.check(payment);
    return unsettledState(this.sql, nonce);
  }

  /** The background check of kept payments (unsettled.ts). */
  override async alarm(): Promise<void> {
    for (const payment of stillUnknown(this.sql)) await this.check(payment);
    const next = nextCheckAt(this.sql);
    if (next !== undefined) await this.ctx.storage.setAlarm(next);
  }

  /**
   * One kept payment looked up on chain: used means paid (credited); unused past its
   * validBefore means it never will be (expired); anything else (unused, or the chain
   * unreachable) is checked again later. Each outcome is one synchronous step after the read,
   * so a retry and the alarm cannot both resolve it.
   */
  private async check(payment: DueUnsettled): Promise<void> {
    const used = await authorizationUsed(payment.rpcUrl, payment.authorization).catch(
      () => undefined,
    );
    const now = Date.now();
    let resolved: UnsettledState | undefined;
    if (used === true) resolved = resolveUnsettled(this.sql, payment.nonce, "paid", now);
    else if (used === false && now / 1000 > payment.validBefore + EXPIRY_MARGIN_SECONDS) {
      resolved = resolveUnsettled(this.sql, payment.nonce, "expired", now);
    } else checkAgainLater(this.sql, payment.nonce, payment.checks, now);
    // How the follow-up of a 502 with an unknown outcome ended (docs/operations.md).
    if (resolved === "credited" || resolved === "expired") {
      console.log({
        event: "unsettled_payment",
        state: resolved,
        wallet: await walletTag(payment.authorization.owner),
        amount: payment.amount,
        checks: payment.checks + 1,
      });
    }
  }

  /** Takes a sign-in (or session) nonce once (nonces.ts). */
  claimSignInNonce(nonce: string, expiresAt: number, nowSeconds: number): SignInNonceClaim {
    return claimSignInNonce(this.sql, nonce, expiresAt, nowSeconds);
  }
}
