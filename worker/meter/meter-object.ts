/**
 * Meter: one SQLite-backed Durable Object per identity, named `wallet:<lower-case address>`
 * or `ip:<client ip>` (see meterKey in ./meter.ts). It holds that identity's rate-limit
 * counts and, for wallets, the free allowance. Calls arrive by RPC on the stub.
 *
 * Storage (SQL API; this is the one place every key is documented):
 *
 *   rate_window(bucket TEXT PRIMARY KEY, window_start INTEGER, count INTEGER)
 *     One row per bucket ("all", "llm"): how many requests were counted in the fixed window
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
 *   The rate_window table also holds, in IP objects, the bucket "free-per-ip" (a one-day
 *   window): free calls taken by wallets calling from that IP, when the operator caps them
 *   (FREE_CALLS_PER_IP_PER_DAY).
 *
 *   payment_nonce(nonce TEXT PRIMARY KEY, state TEXT, expires_at INTEGER)
 *     Wallet objects only, for the wallet as payer: the EIP-3009 authorization nonces (lower-
 *     case hex) of x402 payments it signed that a request is using: 'pending' from before
 *     verification until settlement, 'settled' after. A nonce found here is a replay and is
 *     refused before any handler runs. A payment given up (verification, handler or
 *     settlement failed, nothing transferred) deletes its row, so the same authorization can
 *     be sent again. Rows are pruned once `expires_at` (unix s: the authorization's
 *     validBefore, at most a day ahead) is past; by then the token contract refuses the
 *     authorization itself (expired, or its nonce used on chain).
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
 *   sign_in_nonce(nonce TEXT PRIMARY KEY, expires_at INTEGER)
 *     Wallet objects only, for the wallet as signer: nonces of sign-in-with-x messages
 *     (auth/siwx.ts) already used to identify a request, and `session:<timestamp>` for each
 *     signed timestamp already exchanged at POST /auth/session; each is accepted once. Rows
 *     are pruned once `expires_at` (unix s: when the message is refused as too old anyway:
 *     issuedAt, or the timestamp, plus the 300 s it is accepted for) is past.
 *
 * Every method is synchronous: it runs to completion without yielding, so calls from
 * concurrent requests are serialised by the object and each read-modify-write is atomic.
 */
import { DurableObject } from "cloudflare:workers";
import { type BucketLimit, evaluateHit, type HitResult, type WindowCount } from "./limits";
import {
  claimPaymentId,
  completePaymentId,
  PAYMENT_ID_TABLE,
  type PaymentIdClaim,
  releasePaymentId,
  type StoredResponse,
} from "./payment-ids";

/** What a paid call without a payment asks of the wallet's allowance (reserveFree). */
export interface FreeAsk {
  /** The allowance (FREE_CALLS_PER_WALLET). */
  total: number;
  /** Free calls the call costs (1, or one per 100 memories imported); default 1. */
  count?: number;
  /** Its price in atomic units: taken from the wallet's credit when no free call is left. */
  creditPrice?: number;
}

/**
 * A call taken from the allowance (`count` free calls, absent = 1) or, when `credit` is set,
 * that many atomic units of the wallet's credit; `used` and `remaining` are the allowance's.
 */
export interface FreeGrant {
  granted: boolean;
  used: number;
  remaining: number;
  count?: number;
  credit?: number;
}

/** A rate-limit verdict, and the free call taken with it when one was asked for. */
export type MeteredHit = HitResult & { free?: FreeGrant };

export interface FreeUsage {
  used: number;
  remaining: number;
  /** The wallet's credit in atomic units, when it holds any. */
  credit?: number;
}

/** A payment nonce taken for one request, or the state of the request that holds it. */
export type PaymentClaim = { claimed: true } | { claimed: false; state: "pending" | "settled" };

/** A sign-in nonce taken for one request; `used` when a request already took it. */
export type SignInNonceClaim = "claimed" | "used";

type WindowRow = { bucket: string; window_start: number; count: number };

/** A table of one row (id = 1) holding one number (the storage comment above). */
interface SingleRow {
  table: string;
  column: string;
}

const FREE_TIER: SingleRow = { table: "free_tier", column: "used" };
const CREDIT: SingleRow = { table: "credit", column: "atomic" };

const singleRowTable = ({ table, column }: SingleRow) =>
  `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), ${column} INTEGER NOT NULL)`;

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
    this.sql.exec(singleRowTable(FREE_TIER));
    this.sql.exec(
      `CREATE TABLE IF NOT EXISTS payment_nonce (
         nonce TEXT PRIMARY KEY,
         state TEXT NOT NULL CHECK (state IN ('pending', 'settled')),
         expires_at INTEGER NOT NULL
       )`,
    );
    this.sql.exec(singleRowTable(CREDIT));
    this.sql.exec(PAYMENT_ID_TABLE);
    this.sql.exec(
      `CREATE TABLE IF NOT EXISTS sign_in_nonce (
         nonce TEXT PRIMARY KEY,
         expires_at INTEGER NOT NULL
       )`,
    );
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

  /**
   * Takes `count` calls from the free allowance of `total` if that many are left (all or
   * nothing), else `creditPrice` atomic units of the wallet's credit if it holds that much.
   */
  reserveFree(total: number, count = 1, creditPrice?: number): FreeGrant {
    const used = this.freeUsed();
    const remaining = Math.max(0, total - used);
    if (count <= remaining) {
      this.setFreeUsed(used + count);
      return {
        granted: true,
        used: used + count,
        remaining: remaining - count,
        ...(count === 1 ? {} : { count }),
      };
    }
    if (creditPrice !== undefined && creditPrice > 0) {
      const held = this.creditHeld();
      if (held >= creditPrice) {
        this.setCredit(held - creditPrice);
        return { granted: true, used, remaining, credit: creditPrice };
      }
    }
    return { granted: false, used, remaining };
  }

  /** Gives back `count` reserved calls (the paid call failed); never below 0 used. */
  releaseFree(count = 1): { used: number } {
    const used = Math.max(0, this.freeUsed() - count);
    this.setFreeUsed(used);
    return { used };
  }

  /** Adds to the wallet's credit (a paid call failed after its payment settled). */
  addCredit(atomic: number): { credit: number } {
    const credit = this.creditHeld() + atomic;
    this.setCredit(credit);
    return { credit };
  }

  freeStatus(total: number): FreeUsage {
    const used = this.freeUsed();
    const credit = this.creditHeld();
    return { used, remaining: Math.max(0, total - used), ...(credit > 0 ? { credit } : {}) };
  }

  /**
   * Takes an authorization nonce for one paid request, unless a request already holds it
   * (in flight or settled). Expired rows are pruned first.
   */
  claimPayment(nonce: string, expiresAt: number, nowSeconds: number): PaymentClaim {
    this.sql.exec("DELETE FROM payment_nonce WHERE expires_at < ?", nowSeconds);
    const key = nonce.toLowerCase();
    const held = this.sql
      .exec<{ state: "pending" | "settled" }>(
        "SELECT state FROM payment_nonce WHERE nonce = ?",
        key,
      )
      .toArray()[0];
    if (held) return { claimed: false, state: held.state };
    this.sql.exec(
      "INSERT INTO payment_nonce (nonce, state, expires_at) VALUES (?, 'pending', ?)",
      key,
      expiresAt,
    );
    return { claimed: true };
  }

  /** The payment of a claimed nonce was settled on chain. */
  settlePayment(nonce: string): void {
    this.sql.exec(
      "UPDATE payment_nonce SET state = 'settled' WHERE nonce = ?",
      nonce.toLowerCase(),
    );
  }

  /** A claimed payment was given up before settling: its nonce may be used again. */
  releasePayment(nonce: string): void {
    this.sql.exec(
      "DELETE FROM payment_nonce WHERE nonce = ? AND state = 'pending'",
      nonce.toLowerCase(),
    );
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

  /** Takes a sign-in nonce once; expired ones are pruned first. */
  claimSignInNonce(nonce: string, expiresAt: number, nowSeconds: number): SignInNonceClaim {
    this.sql.exec("DELETE FROM sign_in_nonce WHERE expires_at < ?", nowSeconds);
    const used = this.sql.exec("SELECT 1 FROM sign_in_nonce WHERE nonce = ?", nonce).toArray()[0];
    if (used) return "used";
    this.sql.exec("INSERT INTO sign_in_nonce (nonce, expires_at) VALUES (?, ?)", nonce, expiresAt);
    return "claimed";
  }

  private freeUsed(): number {
    return this.read(FREE_TIER);
  }

  private setFreeUsed(used: number): void {
    this.write(FREE_TIER, used);
  }

  private creditHeld(): number {
    return this.read(CREDIT);
  }

  private setCredit(atomic: number): void {
    this.write(CREDIT, atomic);
  }

  /** A single-row table's number; absent = 0. */
  private read({ table, column }: SingleRow): number {
    const rows = this.sql
      .exec<Record<string, number>>(`SELECT ${column} AS n FROM ${table} WHERE id = 1`)
      .toArray();
    return rows[0]?.n ?? 0;
  }

  private write({ table, column }: SingleRow, value: number): void {
    this.sql.exec(
      `INSERT INTO ${table} (id, ${column}) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET ${column} = excluded.${column}`,
      value,
    );
  }
}
