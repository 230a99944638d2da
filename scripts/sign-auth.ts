/**
 * Prints an `x-wallet-auth` header value for curl:
 *   npx tsx scripts/sign-auth.ts [PRIVATE_KEY] [PREFIX]
 * Without a key it makes a throwaway wallet (printed to stderr). PREFIX defaults to
 * AUTH_MESSAGE_PREFIX or "service-auth". The value is valid for 300 seconds.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const key = (process.argv[2] ?? process.env.PRIVATE_KEY ?? generatePrivateKey()) as `0x${string}`;
const prefix = process.argv[3] ?? process.env.AUTH_MESSAGE_PREFIX ?? "service-auth";
const account = privateKeyToAccount(key);
const ts = Math.floor(Date.now() / 1000);
const signature = await account.signMessage({ message: `${prefix}:${ts}` });
if (!process.argv[2] && !process.env.PRIVATE_KEY)
  console.error(`wallet ${account.address} (key ${key})`);
console.log(`${account.address}:${ts}:${signature}`);
