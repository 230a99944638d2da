/**
 * The local anvil chain of the global setup (scripts/local-chain.ts) for the x402 extension
 * tests: the suite's Worker code called with X402_* pointed at the chain (in-process
 * facilitator), payers with the real x402 client (@x402/fetch's x402Client with @x402/evm's
 * exact scheme), and token balances read from the chain. Same setup as test/payment.test.ts.
 */
import {
  createExecutionContext,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { x402Client } from "@x402/fetch";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import { type ApiResponse, request, signAuth, type WorkerFetch } from "../helpers";

interface ChainDetails {
  rpcUrl: string;
  chainId: number;
  network: `eip155:${number}`;
  asset: Address;
  assetName: string;
  assetVersion: string;
  payTo: Address;
  facilitatorKey: Hex;
  minterKey: Hex;
}

export const chain = JSON.parse(env.LOCAL_CHAIN) as ChainDetails;

/** The suite's bindings with payments pointed at the local chain (in-process facilitator). */
export const chainEnv: Env = {
  ...env,
  X402_NETWORK: chain.network,
  X402_ASSET: chain.asset,
  X402_ASSET_NAME: chain.assetName,
  X402_ASSET_VERSION: chain.assetVersion,
  X402_PAY_TO: chain.payTo,
  X402_RPC_URL: chain.rpcUrl,
  X402_FACILITATOR_KEY: chain.facilitatorKey,
};

/** The Worker with `bindings`, as a fetch function for test/helpers.ts `request`. */
export function workerWith(bindings: Env): WorkerFetch {
  return async (url, init) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(url, init), bindings, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}

export const chainFetch = workerWith(chainEnv);

const viemChain = defineChain({
  id: chain.chainId,
  name: "anvil",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [chain.rpcUrl] } },
});
const publicClient = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl) });
const minter = createWalletClient({
  account: privateKeyToAccount(chain.minterKey),
  chain: viemChain,
  transport: http(chain.rpcUrl),
});

const balanceOf = (address: Address) =>
  publicClient.readContract({
    address: chain.asset,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });

/** The payer's and the payee's token balances. */
export async function balances(payer: Address) {
  const [p, t] = await Promise.all([balanceOf(payer), balanceOf(chain.payTo)]);
  return { payer: p, payTo: t };
}

/** How many token transfers `from` made (Transfer events on the chain). */
export async function transfersFrom(from: Address): Promise<number> {
  const logs = await publicClient.getLogs({
    address: chain.asset,
    event: parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"])[0],
    args: { from },
    fromBlock: 0n,
  });
  return logs.length;
}

export async function mint(to: Address, amount: bigint) {
  const hash = await minter.writeContract({
    address: chain.asset,
    abi: parseAbi(["function mint(address to, uint256 value)"]),
    functionName: "mint",
    args: [to, amount],
  });
  await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
}

export const meterOf = (wallet: string) =>
  env.METER.get(env.METER.idFromName(`wallet:${wallet.toLowerCase()}`));

/** Uses up a wallet's free allowance directly in its Meter. */
export async function exhaustAllowance(wallet: string) {
  await runInDurableObject(meterOf(wallet), (_instance, state) => {
    state.storage.sql.exec(
      "INSERT INTO free_tier (id, used) VALUES (1, 100) ON CONFLICT (id) DO UPDATE SET used = 100",
    );
  });
}

export interface Payer {
  account: PrivateKeyAccount;
  address: Address;
  /** A request signed with x-wallet-auth, plus `headers`, through the chain's Worker. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  /** A signed x402 payment for a 402's requirements, optionally with a payment identifier. */
  pay(required: PaymentRequired, id?: string): Promise<PaymentPayload>;
}

/** A funded wallet whose free allowance is used up, so that every paid call asks to pay. */
export async function newPayer(fetch: WorkerFetch = chainFetch): Promise<Payer> {
  const account = privateKeyToAccount(generatePrivateKey());
  await mint(account.address, 1_000_000n);
  await exhaustAllowance(account.address);
  const client = x402Client.fromConfig({
    schemes: [{ network: chain.network, client: new ExactEvmScheme(account) }],
    spendControls: { allowedAssets: [{ network: chain.network, asset: chain.asset }] },
  });
  return {
    account,
    address: account.address,
    call: async (method, path, body, headers = {}) =>
      request(method, path, {
        body,
        headers: { "x-wallet-auth": await signAuth(account), ...headers },
        fetch,
      }),
    pay: async (required, id) => {
      // A copy: the client's payload shares its extension objects with `required`.
      const payload = structuredClone(await client.createPaymentPayload(required));
      if (id !== undefined) {
        payload.extensions = appendPaymentIdentifierToExtensions(payload.extensions ?? {}, id);
      }
      return payload;
    },
  };
}

/** The PaymentRequired object of a 402 answer. */
export function requiredOf(res: ApiResponse): PaymentRequired {
  const header = res.headers.get("payment-required");
  if (res.status !== 402 || !header) {
    throw new Error(`expected a 402 with PAYMENT-REQUIRED, got ${res.status}`);
  }
  return decodePaymentRequiredHeader(header);
}

export const paymentHeader = (payload: PaymentPayload) => ({
  "payment-signature": encodePaymentSignatureHeader(payload),
});
