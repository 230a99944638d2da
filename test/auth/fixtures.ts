/** What the authentication tests share: signed headers, sessions and hand-made tokens. */
import { SignJWT } from "jose";
import type { PrivateKeyAccount } from "viem/accounts";
import { type ApiResponse, nowSeconds, PREFIX, request } from "../helpers";

export const JWT_SECRET = "test-secret-test-secret-test-secret-0123456789";
export const ISSUER = "memory-service";
export const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

export const get = (path: string, headers: Record<string, string>) =>
  request("GET", path, { headers });

export const withHeader = (value: string) => ({ "x-wallet-auth": value });
export const withBearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The pieces of a signed `x-wallet-auth` value, for building malformed variants. */
export async function signed(account: PrivateKeyAccount, ts = nowSeconds(), prefix = PREFIX) {
  const signature = await account.signMessage({ message: `${prefix}:${ts}` });
  return { address: account.address, ts, signature };
}

/** The order of secp256k1. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * The malleated twin of a 65-byte signature: (r, n - s) with v flipped, which recovers the
 * same address for the same message (a high s where the signer's was low).
 */
export function highSTwin(signature: string): `0x${string}` {
  const hex = signature.startsWith("0x") ? signature.slice(2) : signature;
  const r = hex.slice(0, 64);
  const s = BigInt(`0x${hex.slice(64, 128)}`);
  const v = Number.parseInt(hex.slice(128, 130), 16);
  const flipped = v === 27 ? 28 : v === 28 ? 27 : v ^ 1;
  const twinS = (SECP256K1_N - s).toString(16).padStart(64, "0");
  return `0x${r}${twinS}${flipped.toString(16).padStart(2, "0")}`;
}

export async function openSession(account: PrivateKeyAccount): Promise<ApiResponse> {
  const { address, ts, signature } = await signed(account);
  return request("POST", "/auth/session", { body: { address, timestamp: ts, signature } });
}

export async function sessionToken(account: PrivateKeyAccount): Promise<string> {
  const res = await openSession(account);
  if (res.status !== 200) throw new Error(`session failed: ${res.status}`);
  return res.body.token as string;
}

export function craftToken(opts: {
  subject: string;
  secret?: string;
  issuer?: string;
  exp?: number;
  iat?: number;
}): Promise<string> {
  const now = nowSeconds();
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(opts.subject)
    .setIssuer(opts.issuer ?? ISSUER)
    .setIssuedAt(opts.iat ?? now)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(new TextEncoder().encode(opts.secret ?? JWT_SECRET));
}

export const b64url = (s: string) =>
  btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** Replaces the character at `i` with a different base64url character. */
export function flipChar(s: string, i: number): string {
  const c = s[i];
  const replacement = c === "A" ? "B" : "A";
  return `${s.slice(0, i)}${replacement}${s.slice(i + 1)}`;
}

export const contentsOf = (res: ApiResponse) =>
  (res.body.memories as Array<{ content: string }>).map((m) => m.content);
