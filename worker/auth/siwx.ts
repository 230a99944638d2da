/**
 * Sign-in-with-x (x402's `sign-in-with-x` extension, CAIP-122; for EVM wallets a SIWE /
 * EIP-4361 message): the `SIGN-IN-WITH-X` header, base64 JSON of the signed message's fields
 * and its signature, identifies the wallet like `x-wallet-auth`. Parsed, checked and verified
 * with @x402/extensions (parseSIWxHeader, validateSIWxMessage, verifySIWxSignature):
 *
 * - domain: the request's host; uri: on the request's origin;
 * - issuedAt: within the last 300 s and not in the future; expirationTime (if set) not past;
 *   notBefore (if set) past;
 * - chain: the payment network (X402_NETWORK, Base by default), signature type eip191;
 * - signature: EIP-191 by `address` (EOA; smart-contract wallets use x-wallet-auth);
 * - nonce: accepted once. The caller claims it in the signer's Meter after this check
 *   (middleware/auth.ts), until the message is too old to be accepted anyway.
 *
 * The nonce may come from a 402's challenge or be the client's own: the extension does not
 * make the server remember the nonces it hands out, and the one-time check stops replays.
 */
import {
  parseSIWxHeader,
  type SIWxPayload,
  validateSIWxMessage,
  verifySIWxSignature,
} from "@x402/extensions/sign-in-with-x";
import { isAddress } from "viem";

export const SIGN_IN_HEADER = "SIGN-IN-WITH-X";

/** How long after issuedAt a message is accepted, and so how long its nonce is kept. */
export const SIWX_MAX_AGE_SECONDS = 300;

/** SIWE's nonce is at least 8 alphanumerics; the cap keeps stored nonces small. */
const NONCE = /^[A-Za-z0-9]{8,128}$/;

export type SignInCheck =
  | {
      ok: true;
      wallet: string;
      nonce: string;
      /** Unix s after which the message is refused as too old: its nonce need not be kept. */
      nonceExpiresAt: number;
    }
  | { ok: false; reason: string };

const refuse = (why: string): SignInCheck => ({ ok: false, reason: `${SIGN_IN_HEADER}: ${why}` });

function parse(header: string): SIWxPayload | string {
  try {
    return parseSIWxHeader(header.trim());
  } catch (err) {
    return err instanceof Error ? err.message : "Invalid SIWX header";
  }
}

/**
 * Checks a SIGN-IN-WITH-X header for a request to `requestUrl` on `network` (CAIP-2). The
 * nonce is not claimed here: only a message that passes every other check may use one up.
 */
export async function verifySignIn(
  header: string,
  requestUrl: string,
  network: string,
): Promise<SignInCheck> {
  const payload = parse(header);
  if (typeof payload === "string") return refuse(payload);
  if (payload.chainId !== network || payload.type !== "eip191") {
    return refuse(
      `chain ${payload.chainId} (${payload.type}) is not accepted; sign for ${network} (eip191)`,
    );
  }
  if (!isAddress(payload.address, { strict: false }))
    return refuse("address is not an EVM address");
  if (!NONCE.test(payload.nonce)) return refuse("nonce must be 8-128 letters and digits");
  const validation = await validateSIWxMessage(payload, new URL(requestUrl), {
    maxAge: SIWX_MAX_AGE_SECONDS * 1000,
  });
  if (!validation.isValid) return refuse(validation.invalidMessage);
  let verification: Awaited<ReturnType<typeof verifySIWxSignature>>;
  try {
    verification = await verifySIWxSignature(payload);
  } catch {
    // The SIWE message could not be formed from the fields (the package throws for some).
    return refuse("the message fields do not form a valid SIWE message");
  }
  if (!verification.isValid) return refuse(verification.invalidMessage);
  const issuedAt = Math.floor(new Date(payload.issuedAt).getTime() / 1000);
  return {
    ok: true,
    wallet: payload.address.toLowerCase(),
    nonce: payload.nonce,
    nonceExpiresAt: issuedAt + SIWX_MAX_AGE_SECONDS,
  };
}
