/**
 * Payments whose settlement's outcome was still unknown when their call had to answer
 * (payment/outcome.ts): the payer got a 502 that said so, and its Meter keeps the payment here
 * until the chain tells. The SQL lives here as plain functions over the object's storage (the
 * table is documented with the others in meter-object.ts); each is one synchronous Durable
 * Object call, so the background check and a retry cannot both take one payment.
 *
 * A kept payment ends one way only:
 * - `credited`: the chain shows its authorization used (the money moved): its price goes to
 *   the wallet's credit, which pays for its next paid call;
 * - `served`: a retry of its request found it paid and was served by it (or by the credit
 *   it had become);
 * - `expired`: its authorization passed its validBefore (or deadline) unused: it can never
 *   move money, its nonce is released, and nothing was taken.
 */
import type { AuthorizationRef } from "../payment/chain-state";
import { addCredit, spendCredit } from "./allowance";
import { releasePayment, settlePayment } from "./nonces";

export type UnsettledState = "unknown" | "credited" | "served" | "expired";

/** A payment kept for the background check. */
export interface UnsettledPayment {
  /** Its key in payment_nonce (nonces.ts). */
  nonce: string;
  authorization: AuthorizationRef;
  /** Where the chain is read. */
  rpcUrl: string;
  /** The settlement transaction a facilitator named, when it named one. */
  transaction?: string;
  /** Its price in atomic units: the credit when it confirms. */
  amount: number;
  /** Unix s: from then on (plus a margin) an unused authorization can never be used. */
  validBefore: number;
}

/** A kept payment, as the background check reads it. */
export interface DueUnsettled extends UnsettledPayment {
  checks: number;
}

export const UNSETTLED_TABLE = `CREATE TABLE IF NOT EXISTS unsettled_payment (
  nonce TEXT PRIMARY KEY,
  authorization TEXT NOT NULL,
  rpc_url TEXT NOT NULL,
  transaction_hash TEXT,
  amount INTEGER NOT NULL,
  valid_before INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('unknown', 'credited', 'served', 'expired')),
  next_check_at INTEGER NOT NULL,
  checks INTEGER NOT NULL,
  resolved_at INTEGER
)`;

/** The first background check comes this soon after the 502 (ms). */
export const FIRST_CHECK_MS = 2_000;
/** Checks back off up to this interval (ms). */
const MAX_CHECK_INTERVAL_MS = 60_000;
/** Resolved rows are kept this long for retries to read (ms). */
const RESOLVED_KEPT_MS = 24 * 60 * 60 * 1000;

type Row = {
  nonce: string;
  authorization: string;
  rpc_url: string;
  transaction_hash: string | null;
  amount: number;
  valid_before: number;
  checks: number;
};

/** Keeps a payment for the background check; answers when the next check is due (ms). */
export function keepUnsettled(sql: SqlStorage, payment: UnsettledPayment, nowMs: number): number {
  sql.exec(
    "DELETE FROM unsettled_payment WHERE state <> 'unknown' AND resolved_at < ?",
    nowMs - RESOLVED_KEPT_MS,
  );
  const due = nowMs + FIRST_CHECK_MS;
  sql.exec(
    `INSERT INTO unsettled_payment
       (nonce, authorization, rpc_url, transaction_hash, amount, valid_before, state, next_check_at, checks)
     VALUES (?, ?, ?, ?, ?, ?, 'unknown', ?, 0)
     ON CONFLICT (nonce) DO NOTHING`,
    payment.nonce.toLowerCase(),
    JSON.stringify(payment.authorization),
    payment.rpcUrl,
    payment.transaction ?? null,
    payment.amount,
    payment.validBefore,
    due,
  );
  return nextCheckAt(sql) ?? due;
}

export function unsettledState(sql: SqlStorage, nonce: string): UnsettledState | undefined {
  return stateOf(sql, nonce.toLowerCase())?.state;
}

/**
 * The kept payments still unknown, each checked whenever the alarm runs: they are few (a
 * wallet's payments of the last minutes), and an alarm that runs early misses none.
 */
export function stillUnknown(sql: SqlStorage): DueUnsettled[] {
  return rowsOf(
    sql.exec<Row>(
      `SELECT nonce, authorization, rpc_url, transaction_hash, amount, valid_before, checks
       FROM unsettled_payment WHERE state = 'unknown'`,
    ),
  );
}

function rowsOf(cursor: SqlStorageCursor<Row>): DueUnsettled[] {
  return cursor.toArray().map((row) => ({
    nonce: row.nonce,
    authorization: JSON.parse(row.authorization) as AuthorizationRef,
    rpcUrl: row.rpc_url,
    ...(row.transaction_hash ? { transaction: row.transaction_hash } : {}),
    amount: row.amount,
    validBefore: row.valid_before,
    checks: row.checks,
  }));
}

/** A check that found nothing yet: the next one after a growing interval. */
export function checkAgainLater(sql: SqlStorage, nonce: string, checks: number, nowMs: number) {
  const interval = Math.min(MAX_CHECK_INTERVAL_MS, FIRST_CHECK_MS * 2 ** checks);
  sql.exec(
    "UPDATE unsettled_payment SET next_check_at = ?, checks = ? WHERE nonce = ? AND state = 'unknown'",
    nowMs + interval,
    checks + 1,
    nonce,
  );
}

/** When the next check of a still-unknown payment is due (ms), if any is. */
export function nextCheckAt(sql: SqlStorage): number | undefined {
  const row = sql
    .exec<{ at: number | null }>(
      "SELECT min(next_check_at) AS at FROM unsettled_payment WHERE state = 'unknown'",
    )
    .toArray()[0];
  return row?.at ?? undefined;
}

function stateOf(sql: SqlStorage, key: string) {
  return sql
    .exec<{ state: UnsettledState; amount: number }>(
      "SELECT state, amount FROM unsettled_payment WHERE nonce = ?",
      key,
    )
    .toArray()[0];
}

function resolveAs(sql: SqlStorage, key: string, state: UnsettledState, nowMs: number) {
  sql.exec(
    "UPDATE unsettled_payment SET state = ?, resolved_at = ? WHERE nonce = ?",
    state,
    nowMs,
    key,
  );
}

/**
 * What the chain said of a still-unknown payment: `paid` credits its price, `expired` releases
 * its nonce. A payment already resolved stays as it is; the answer is its state after.
 */
export function resolveUnsettled(
  sql: SqlStorage,
  nonce: string,
  outcome: "paid" | "expired",
  nowMs: number,
): UnsettledState | undefined {
  const key = nonce.toLowerCase();
  const row = stateOf(sql, key);
  if (row?.state !== "unknown") return row?.state;
  const state: UnsettledState = outcome === "paid" ? "credited" : "expired";
  resolveAs(sql, key, state, nowMs);
  if (outcome === "paid") {
    addCredit(sql, row.amount);
    settlePayment(sql, key);
  } else {
    releasePayment(sql, key);
  }
  return state;
}

/**
 * A retry of the request a kept payment was made for, once the chain showed it paid: it is
 * served by the credit the payment became, while that credit is still there. False when it
 * cannot be (not credited, or the credit was spent on another call meanwhile).
 */
export function serveUnsettled(sql: SqlStorage, nonce: string, nowMs: number): boolean {
  const key = nonce.toLowerCase();
  const row = stateOf(sql, key);
  if (row?.state !== "credited" || !spendCredit(sql, row.amount)) return false;
  resolveAs(sql, key, "served", nowMs);
  return true;
}

/** One kept payment still unknown, for a retry's look at it. */
export function unsettledRow(sql: SqlStorage, nonce: string): DueUnsettled | undefined {
  return rowsOf(
    sql.exec<Row>(
      `SELECT nonce, authorization, rpc_url, transaction_hash, amount, valid_before, checks
       FROM unsettled_payment WHERE nonce = ? AND state = 'unknown'`,
      nonce.toLowerCase(),
    ),
  )[0];
}
