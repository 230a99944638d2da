/**
 * Nonces the Meter keeps so that a signed thing is used once: x402 authorization nonces (the
 * replay guard of payments) and sign-in nonces (sign-in-with-x messages, and session
 * exchanges). The SQL lives here as plain functions over the object's storage; the tables are
 * documented with the others in meter-object.ts. Each function is one synchronous Durable
 * Object call, so two requests racing with one nonce cannot both take it.
 */

/** A payment nonce taken for one request, or the state of the request that holds it. */
export type PaymentClaim = { claimed: true } | { claimed: false; state: "pending" | "settled" };

/** A sign-in nonce taken for one request; `used` when a request already took it. */
export type SignInNonceClaim = "claimed" | "used";

export const PAYMENT_NONCE_TABLE = `CREATE TABLE IF NOT EXISTS payment_nonce (
  nonce TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('pending', 'settled')),
  expires_at INTEGER NOT NULL
)`;

export const SIGN_IN_NONCE_TABLE = `CREATE TABLE IF NOT EXISTS sign_in_nonce (
  nonce TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
)`;

/**
 * Takes an authorization nonce for one paid request, unless a request already holds it (in
 * flight or settled). Expired rows are pruned first.
 */
export function claimPayment(
  sql: SqlStorage,
  nonce: string,
  expiresAt: number,
  nowSeconds: number,
): PaymentClaim {
  sql.exec("DELETE FROM payment_nonce WHERE expires_at < ?", nowSeconds);
  const key = nonce.toLowerCase();
  const held = sql
    .exec<{ state: "pending" | "settled" }>("SELECT state FROM payment_nonce WHERE nonce = ?", key)
    .toArray()[0];
  if (held) return { claimed: false, state: held.state };
  sql.exec(
    "INSERT INTO payment_nonce (nonce, state, expires_at) VALUES (?, 'pending', ?)",
    key,
    expiresAt,
  );
  return { claimed: true };
}

export function settlePayment(sql: SqlStorage, nonce: string): void {
  sql.exec("UPDATE payment_nonce SET state = 'settled' WHERE nonce = ?", nonce.toLowerCase());
}

export function releasePayment(sql: SqlStorage, nonce: string): void {
  sql.exec("DELETE FROM payment_nonce WHERE nonce = ? AND state = 'pending'", nonce.toLowerCase());
}

/** Takes a sign-in nonce once; expired ones are pruned first. */
export function claimSignInNonce(
  sql: SqlStorage,
  nonce: string,
  expiresAt: number,
  nowSeconds: number,
): SignInNonceClaim {
  sql.exec("DELETE FROM sign_in_nonce WHERE expires_at < ?", nowSeconds);
  const used = sql.exec("SELECT 1 FROM sign_in_nonce WHERE nonce = ?", nonce).toArray()[0];
  if (used) return "used";
  sql.exec("INSERT INTO sign_in_nonce (nonce, expires_at) VALUES (?, ?)", nonce, expiresAt);
  return "claimed";
}
