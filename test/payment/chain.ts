/**
 * The x402 tests' world: the local anvil chain of the global setup (local/chain/start.ts:
 * an EIP-3009 "USD Coin" token, the in-process facilitator), the Worker pointed at it, and
 * payers whose client is the real one (@x402/fetch with @x402/evm's exact scheme).
 *
 * The suite's Worker (SELF) runs with the default payment settings (Base, no X402_PAY_TO:
 * payments off), which the meter tests' 402 bodies rely on. Here the same Worker code is
 * called with X402_* pointing at the chain: `worker.fetch(request, chainEnv, ctx)`, with the
 * suite's real bindings (Postgres, the Meter Durable Objects) otherwise unchanged.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { Address } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { beforeAll, expect, vi } from "vitest";
import { type ChainDetails, localChainVars } from "../../local/chain/details";
import { localToken } from "../../local/chain/token";
import type { Env } from "../../worker/env";
import { type Json, signAuth } from "../helpers";
import { workerWith } from "../worker-with";

export const chain = JSON.parse(env.LOCAL_CHAIN) as ChainDetails;
export const BASE = "http://memory.test";

/** The suite's bindings with payments pointed at the local chain (in-process facilitator). */
export const chainEnv: Env = { ...env, ...localChainVars(chain) };

/** The Worker configured for the chain, as a fetch function. */
export const chainFetch = workerWith(chainEnv);

const token = localToken(chain);
export const publicClient = token.reader;
export const { balanceOf } = token;

export async function balances(payer: Address) {
  const [p, t] = await Promise.all([balanceOf(payer), balanceOf(chain.payTo)]);
  return { payer: p, payTo: t };
}

/** Mints test USDC to `to` (local/chain/token.ts: a mint that races another is sent again). */
export const mint = (to: Address, amount: bigint) => token.mint(to, amount);

/** How a payer's client pays: the 402's first way (EIP-3009), or Permit2. */
export type PayBy = "eip3009" | "permit2";

/** The x402 client of a wallet: the exact EVM scheme, and the test token allowed. */
export function x402For(account: PrivateKeyAccount, by: PayBy = "eip3009") {
  return x402Client.fromConfig({
    // The Permit2 requirement, when asked to pay by Permit2 (a wallet's choice).
    policies:
      by === "permit2"
        ? [(_version, reqs) => reqs.filter((r) => r.extra?.assetTransferMethod === "permit2")]
        : [],
    schemes: [
      { network: chain.network, client: new ExactEvmScheme(account) },
      // Registered so the client can be made to sign for the wrong network on purpose.
      { network: "eip155:84532", client: new ExactEvmScheme(account) },
    ],
    spendControls: {
      allowedAssets: [
        { network: chain.network, asset: chain.asset },
        { network: "eip155:84532", asset: chain.asset },
      ],
    },
  });
}

export interface Payer {
  account: PrivateKeyAccount;
  address: Address;
  wallet: string;
  /** x-wallet-auth on every request, then what the Worker answers (no payment handling). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** The same, wrapped by @x402/fetch: a 402 is paid and the request sent again. */
  pay(path: string, init?: RequestInit): Promise<Response>;
  /** The PAYMENT-SIGNATURE headers this wallet's client sent, in order. */
  sentPayments: string[];
}

export function newPayer(by: PayBy = "eip3009", worker: typeof chainFetch = chainFetch): Payer {
  const account = privateKeyToAccount(generatePrivateKey());
  const sentPayments: string[] = [];
  const signed = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set("x-wallet-auth", await signAuth(account));
    const payment = request.headers.get("payment-signature");
    if (payment) sentPayments.push(payment);
    return worker(request);
  };
  const paying = wrapFetchWithPayment(signed, x402For(account, by));
  return {
    account,
    address: account.address,
    wallet: account.address.toLowerCase(),
    fetch: (path, init) => signed(`${BASE}${path}`, init),
    pay: (path, init) => paying(`${BASE}${path}`, init),
    sentPayments,
  };
}

export const post = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

export const json = async (res: Response): Promise<Json> => JSON.parse(await res.text());

export const meterOf = (wallet: string) =>
  env.METER.get(env.METER.idFromName(`wallet:${wallet.toLowerCase()}`));

/** Lets `account` pay by Permit2: ETH for gas, then its one approval of Permit2. */
export const approvePermit2 = (account: PrivateKeyAccount) => token.approvePermit2(account);

/** Sets the free calls a wallet has used, directly in its Meter (default: all 100). */
export async function exhaustAllowance(wallet: string, used = 100) {
  await runInDurableObject(meterOf(wallet), (_instance, state) => {
    state.storage.sql.exec(
      "INSERT INTO free_tier (id, used) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET used = excluded.used",
      used,
    );
  });
}

/** Date only (timers and I/O run normally), shared by the test and the Worker's isolate. */
export function freezeClockAt(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: ms });
}

export function expectedRequirement(amount: string) {
  return {
    scheme: "exact",
    network: chain.network,
    asset: chain.asset,
    amount,
    payTo: chain.payTo,
    maxTimeoutSeconds: 300,
    extra: { name: "USD Coin", version: "2" },
  };
}

/** A 402's `accepts`: the exact scheme by EIP-3009 first, then by Permit2. */
export function expectedAccepts(amount: string) {
  const eip3009 = expectedRequirement(amount);
  return [eip3009, { ...eip3009, extra: { ...eip3009.extra, assetTransferMethod: "permit2" } }];
}

/** The chain is up and the token deployed with the EIP-712 domain the Worker announces. */
async function expectChainReady() {
  expect(await publicClient.getChainId()).toBe(chain.chainId);
  expect(await balanceOf(chain.payer)).toBeGreaterThan(0n);
}

// Checked once before the tests of every file that pays on the chain (a hook registered here
// belongs to the importing file), so a chain that is not up fails there with this reason.
beforeAll(expectChainReady);

/** Gives `p` `funds` (by default 1 USDC, 1,000,000 units) and uses up its free allowance. */
export async function readyToPay(p: Payer, funds = 1_000_000n) {
  await mint(p.address, funds);
  await exhaustAllowance(p.wallet);
}

/** A payer holding 1 USDC (1,000,000 units) whose free allowance is used up. */
export async function fundedPayer(
  by: PayBy = "eip3009",
  worker: typeof chainFetch = chainFetch,
  funds = 1_000_000n,
): Promise<Payer> {
  const p = newPayer(by, worker);
  await readyToPay(p, funds);
  if (by === "permit2") await approvePermit2(p.account);
  return p;
}

/** A POST of `body` carrying a PAYMENT-SIGNATURE header the test made itself. */
export const postPaid = (body: unknown, signature: string): RequestInit => ({
  ...post(body),
  headers: { "content-type": "application/json", "payment-signature": signature },
});

/** The requirement a store call announces in its 402 to `p`, whose allowance is used up. */
export async function storeRequirement(p: Payer) {
  const res = await p.fetch("/v1/store", post({ content: "x" }));
  return decodePaymentRequiredHeader(res.headers.get("payment-required") ?? "");
}

/**
 * A payment `payer` signs for a store call, for the requirement its 402 announces to
 * `announcedTo` (a payer whose allowance is used up: the payer itself unless another is given).
 */
export async function storePayment(
  payer: Payer,
  announcedTo: Payer = payer,
  by: PayBy = "eip3009",
) {
  return x402For(payer.account, by).createPaymentPayload(await storeRequirement(announcedTo));
}

/**
 * Exactly `amount` left the payer between the two balance readings, and payTo got it. (Other
 * test files pay the same payTo meanwhile, so its balance may have grown by more.)
 */
export function expectTransferred(
  before: { payer: bigint; payTo: bigint },
  after: { payer: bigint; payTo: bigint },
  amount: bigint,
) {
  expect(after.payer).toBe(before.payer - amount);
  expect(after.payTo >= before.payTo + amount).toBe(true);
}

/** Nothing left the payer between the two balance readings. */
export function expectUnchanged(before: { payer: bigint }, after: { payer: bigint }) {
  expect(after.payer).toBe(before.payer);
}
