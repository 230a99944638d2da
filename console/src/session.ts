/**
 * Signing in: the wallet signs `{prefix}:{unix_ts}` (the prefix comes from the public
 * GET /v1/free-tier/info) and POST /auth/session trades the signature for a session token.
 * Three signers: an injected EIP-1193 wallet, a pasted private key, or a fresh throwaway key
 * (the dev-only test wallet). A private key is used for that one signature and dropped; only
 * the token is kept, in sessionStorage (this tab, this origin; never a cookie).
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type Api, ApiError } from "./api";
import { forgetTabValues, hasStrings, tabValue } from "./tab-storage";

export type SignInMethod = "browser-wallet" | "private-key" | "test-wallet";

export interface Session {
  token: string;
  wallet: string;
  expiresAt: string;
  method: SignInMethod;
}

const stored = tabValue("session", (json) =>
  hasStrings(json, ["token", "wallet", "expiresAt", "method"]) ? (json as Session) : null,
);

/** The tab's session, unless it has expired. */
export function loadSession(): Session | null {
  const session = stored.load();
  if (session && Date.parse(session.expiresAt) <= Date.now()) {
    stored.save(null);
    return null;
  }
  return session;
}

export function saveSession(session: Session): void {
  stored.save(session);
}

/** Forgets the token and everything else this tab kept for the wallet (e.g. followed jobs). */
export const clearSession = forgetTabValues;

interface FreeTierInfo {
  auth: { message_to_sign: string };
}

/** The message a wallet signs at `timestamp`, in this deployment's format. */
async function messageFor(api: Api, timestamp: number): Promise<string> {
  const info = await api.call<FreeTierInfo>("GET", "/v1/free-tier/info", undefined, {
    anonymous: true,
  });
  const template = info.auth.message_to_sign;
  if (!template.includes("{unix_timestamp}")) {
    throw new ApiError(0, "UNEXPECTED_ANSWER", "The service did not say what to sign", null);
  }
  return template.replace("{unix_timestamp}", String(timestamp));
}

interface SessionAnswer {
  token: string;
  wallet: string;
  expires_at: string;
}

async function exchange(
  api: Api,
  address: string,
  method: SignInMethod,
  sign: (message: string) => Promise<string>,
): Promise<Session> {
  const timestamp = Math.floor(Date.now() / 1000);
  const message = await messageFor(api, timestamp);
  const signature = await sign(message);
  const answer = await api.call<SessionAnswer>(
    "POST",
    "/auth/session",
    { address, timestamp, signature },
    { anonymous: true },
  );
  return { token: answer.token, wallet: answer.wallet, expiresAt: answer.expires_at, method };
}

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

export function isPrivateKey(text: string): boolean {
  return PRIVATE_KEY.test(text.trim());
}

/** Signs in with a private key held only for this call. */
export function signInWithKey(
  api: Api,
  key: string,
  method: SignInMethod = "private-key",
): Promise<Session> {
  const trimmed = key.trim();
  if (!isPrivateKey(trimmed)) {
    return Promise.reject(
      new ApiError(0, "INVALID_KEY", "A private key is 64 hexadecimal characters", null),
    );
  }
  const hex = (trimmed.startsWith("0x") ? trimmed : `0x${trimmed}`) as `0x${string}`;
  const account = privateKeyToAccount(hex);
  return exchange(api, account.address, method, (message) => account.signMessage({ message }));
}

/** A brand-new throwaway wallet (dev only): its key never leaves this function. */
export function signInWithTestWallet(api: Api): Promise<Session> {
  return signInWithKey(api, generatePrivateKey(), "test-wallet");
}

/** The EIP-1193 provider a browser wallet injects. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export function injectedProvider(): Eip1193Provider | null {
  const candidate = (globalThis as { ethereum?: unknown }).ethereum;
  if (typeof candidate !== "object" || candidate === null) return null;
  const request = (candidate as { request?: unknown }).request;
  return typeof request === "function" ? (candidate as Eip1193Provider) : null;
}

/** UTF-8 text as 0x-hex, the form personal_sign takes. */
export function utf8Hex(text: string): string {
  let hex = "0x";
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Asks the browser wallet for an account and a personal_sign of the auth message. */
export async function signInWithBrowserWallet(
  api: Api,
  provider: Eip1193Provider,
): Promise<Session> {
  let accounts: unknown;
  try {
    accounts = await provider.request({ method: "eth_requestAccounts" });
  } catch (err) {
    throw walletError(err, "The wallet did not share an account");
  }
  const address = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof address !== "string") {
    throw new ApiError(0, "WALLET_ERROR", "The wallet returned no account", null);
  }
  return exchange(api, address, "browser-wallet", async (message) => {
    let signature: unknown;
    try {
      signature = await provider.request({
        method: "personal_sign",
        params: [utf8Hex(message), address],
      });
    } catch (err) {
      throw walletError(err, "The wallet did not sign");
    }
    if (typeof signature !== "string") {
      throw new ApiError(0, "WALLET_ERROR", "The wallet returned no signature", null);
    }
    return signature;
  });
}

function walletError(err: unknown, fallback: string): ApiError {
  const message =
    typeof err === "object" && err !== null && "message" in err
      ? String((err as { message: unknown }).message)
      : fallback;
  return new ApiError(0, "WALLET_ERROR", `${fallback}: ${message}`, null);
}
