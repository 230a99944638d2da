/**
 * x402 payment identifiers (the `payment-identifier` extension: an idempotency key chosen by
 * the client), remembered in the payer's Meter object. The SQL lives here as plain functions
 * over the object's storage; the table is documented with the others in meter-object.ts.
 *
 * A claim is a single read-modify-write inside one synchronous Durable Object call, so two
 * requests racing with one identifier cannot both win it.
 */

/** The answer a paid request got, kept to be sent again to a retry with its identifier. */
export interface StoredResponse {
  status: number;
  /** The JSON body as sent; null when it was larger than the service keeps. */
  body: string | null;
  /** Headers that belong to the answer (PAYMENT-RESPONSE, the settlement receipt). */
  headers: Record<string, string>;
}

/** What claiming an identifier for a request found. */
export type PaymentIdClaim =
  /** New: this request runs and its answer will be kept (completePaymentId). */
  | { outcome: "claimed" }
  /** The identifier belongs to another request (another fingerprint). */
  | { outcome: "conflict" }
  /** The same request holds it and has not finished yet. */
  | { outcome: "in_progress" }
  /** The same request was already answered (and its payment settled): send this again. */
  | { outcome: "replay"; response: StoredResponse };

type Row = {
  fingerprint: string;
  state: "pending" | "done";
  status: number | null;
  body: string | null;
  headers: string | null;
};

export const PAYMENT_ID_TABLE = `CREATE TABLE IF NOT EXISTS payment_id (
  id TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
  status INTEGER,
  body TEXT,
  headers TEXT,
  expires_at INTEGER NOT NULL
)`;

export function claimPaymentId(
  sql: SqlStorage,
  id: string,
  fingerprint: string,
  pendingUntil: number,
  nowSeconds: number,
): PaymentIdClaim {
  sql.exec("DELETE FROM payment_id WHERE expires_at < ?", nowSeconds);
  const row = sql
    .exec<Row>("SELECT fingerprint, state, status, body, headers FROM payment_id WHERE id = ?", id)
    .toArray()[0];
  if (!row) {
    sql.exec(
      "INSERT INTO payment_id (id, fingerprint, state, expires_at) VALUES (?, ?, 'pending', ?)",
      id,
      fingerprint,
      pendingUntil,
    );
    return { outcome: "claimed" };
  }
  if (row.fingerprint !== fingerprint) return { outcome: "conflict" };
  if (row.state === "pending") return { outcome: "in_progress" };
  return {
    outcome: "replay",
    response: {
      status: row.status ?? 200,
      body: row.body,
      headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
    },
  };
}

/** The claimed request was answered: keep the answer until `expiresAt` (unix s). */
export function completePaymentId(
  sql: SqlStorage,
  id: string,
  response: StoredResponse,
  expiresAt: number,
): void {
  sql.exec(
    `UPDATE payment_id SET state = 'done', status = ?, body = ?, headers = ?, expires_at = ?
     WHERE id = ? AND state = 'pending'`,
    response.status,
    response.body,
    JSON.stringify(response.headers),
    expiresAt,
    id,
  );
}

/** The claimed request failed without paying: the identifier may be used again. */
export function releasePaymentId(sql: SqlStorage, id: string): void {
  sql.exec("DELETE FROM payment_id WHERE id = ? AND state = 'pending'", id);
}

/**
 * An answered identifier taken again by a retry that will answer anew: the retry of a request
 * whose payment's outcome was unknown, now paid (middleware/payment-unsettled.ts). Only one
 * retry reopens it; the others find it pending.
 */
export function reopenPaymentId(sql: SqlStorage, id: string, pendingUntil: number): boolean {
  const cursor = sql.exec(
    "UPDATE payment_id SET state = 'pending', expires_at = ? WHERE id = ? AND state = 'done'",
    pendingUntil,
    id,
  );
  return cursor.rowsWritten > 0;
}
