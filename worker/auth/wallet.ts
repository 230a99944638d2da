import { type Hex, isAddress, verifyMessage } from "viem";
import { BoundedMap } from "../lib/bounded-map";

/** How far a signed timestamp may be from the server's clock, either way (spec: 300 s). */
export const AUTH_TOLERANCE_SECONDS = 300;

export type WalletCheck = { ok: true; wallet: string } | { ok: false; reason: string };

/** Half the order of secp256k1: EIP-2's bound on `s`. */
const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * Whether a 65-byte signature (r, s, v as hex) has a high `s`. Every ECDSA signature has a
 * twin, (r, n - s) with v flipped, that verifies for the same message and key; EIP-2 made the
 * high one invalid for transactions, and wallets sign only the low one. Refused here, so a
 * signed message has one accepted form per signing, not two.
 */
function isHighS(hex: string): boolean {
  return BigInt(`0x${hex.slice(66, 130)}`) > SECP256K1_HALF_N;
}

/**
 * Checks an EIP-191 signature of `{prefix}:{timestamp}` by `address`, as sent in the
 * `x-wallet-auth` header (`address:timestamp:signature`) or the session exchange body.
 * Returns the wallet lower-cased: it is the identity key everywhere. Only the low-s form is
 * accepted (isHighS). The session exchange takes the signed message (its timestamp) once,
 * not the signature, so no form of a signature buys a second token (routes/auth/session.ts).
 */
export async function verifyWalletSignature(
  address: string,
  timestamp: number,
  signature: string,
  prefix: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<WalletCheck> {
  if (!isAddress(address, { strict: false }))
    return { ok: false, reason: "Invalid wallet address" };
  if (!Number.isInteger(timestamp)) return { ok: false, reason: "Invalid timestamp" };
  if (Math.abs(nowSeconds - timestamp) > AUTH_TOLERANCE_SECONDS) {
    return { ok: false, reason: "Timestamp expired or too far in the future" };
  }
  const hex = (signature.startsWith("0x") ? signature : `0x${signature}`) as Hex;
  if (!/^0x[0-9a-fA-F]{130}$/.test(hex)) return { ok: false, reason: "Invalid signature format" };
  if (isHighS(hex)) {
    return {
      ok: false,
      reason:
        "Invalid signature: s is in the upper half of the curve order (EIP-2: sign with low s)",
    };
  }
  try {
    const valid = await verifyMessage({
      address: address as Hex,
      message: `${prefix}:${timestamp}`,
      signature: hex,
    });
    return valid
      ? { ok: true, wallet: address.toLowerCase() }
      : { ok: false, reason: "Invalid signature" };
  } catch {
    return { ok: false, reason: "Invalid signature" };
  }
}

/**
 * Headers whose signature was already verified, by prefix and value. An agent reuses one
 * signed header for many requests within its 300 s window; the timestamp is still checked on
 * every use, only the secp256k1 recovery (~1.5 ms) is skipped.
 */
const verified = new BoundedMap<string, string>(10_000);

/** Parses and verifies an `x-wallet-auth` header value. */
export async function verifyWalletHeader(value: string, prefix: string): Promise<WalletCheck> {
  const key = `${prefix}\n${value.trim()}`;
  const known = verified.get(key);
  const check = known
    ? checkTimestampOnly(value, known)
    : await verifyWalletHeaderUncached(value, prefix);
  if (check.ok && !known) verified.set(key, check.wallet);
  return check;
}

function checkTimestampOnly(value: string, wallet: string): WalletCheck {
  const ts = Number(value.trim().split(":")[1]);
  const now = Math.floor(Date.now() / 1000);
  return Math.abs(now - ts) > AUTH_TOLERANCE_SECONDS
    ? { ok: false, reason: "Timestamp expired or too far in the future" }
    : { ok: true, wallet };
}

function verifyWalletHeaderUncached(value: string, prefix: string): Promise<WalletCheck> {
  const parts = value.trim().split(":");
  if (parts.length !== 3) {
    return Promise.resolve({
      ok: false,
      reason: "x-wallet-auth must be {address}:{unix_timestamp}:{signature}",
    });
  }
  const [address = "", ts = "", signature = ""] = parts;
  if (!/^\d{1,12}$/.test(ts)) return Promise.resolve({ ok: false, reason: "Invalid timestamp" });
  return verifyWalletSignature(address, Number(ts), signature, prefix);
}
