/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/), with the maintained
 * `standardwebhooks` package rather than HMAC code of our own: a `whsec_` secret of 32 random
 * bytes, and the three headers every delivery carries. A receiver verifies with the same
 * package (docs/webhooks.md, "Verifying").
 */
import { Webhook } from "standardwebhooks";

const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * The headers of one delivery: `webhook-id` is the event's id (the receiver's idempotency
 * key: a retry or a duplicate carries the same one), `webhook-timestamp` the attempt's time
 * in Unix seconds, `webhook-signature` `v1,<base64 HMAC-SHA256 of id.timestamp.body>`.
 */
export function signedHeaders(
  secret: string,
  id: string,
  body: string,
  at = new Date(),
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}
