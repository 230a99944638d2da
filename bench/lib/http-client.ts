/**
 * A wallet that talks to the service over HTTP: a fresh private key, the `x-wallet-auth`
 * header re-signed every 4 minutes (it is valid for 5), and each call timed end to end.
 */
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";

async function authHeader(account: PrivateKeyAccount): Promise<string> {
  const ts = Math.floor(Date.now() / 1000);
  return `${account.address}:${ts}:${await account.signMessage({ message: `service-auth:${ts}` })}`;
}

export interface CallResult<T> {
  ms: number;
  /** The parsed JSON body, typed by the caller (the service's responses are not validated here). */
  body: T;
  timing: string | null;
}

export interface Wallet {
  account: PrivateKeyAccount;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<CallResult<T>>;
}

export function newWallet(baseUrl: string): Wallet {
  const account = privateKeyToAccount(generatePrivateKey());
  let header = "";
  let signedAt = 0;
  return {
    account,
    async call<T>(method: string, path: string, body?: unknown): Promise<CallResult<T>> {
      if (Date.now() - signedAt > 240_000) {
        header = await authHeader(account);
        signedAt = Date.now();
      }
      const started = performance.now();
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { "x-wallet-auth": header, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
      return { ms, body: JSON.parse(text) as T, timing: res.headers.get("server-timing") };
    },
  };
}
