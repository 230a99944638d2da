/**
 * x402 v2 payments end to end, inside workerd, against the local anvil chain of the global
 * setup (scripts/local-chain.ts: an EIP-3009 "USD Coin" token, the in-process facilitator).
 *
 * The suite's Worker (SELF) runs with the default payment settings (Base, no X402_PAY_TO:
 * payments off), which the meter tests' 402 bodies rely on. Here the same Worker code is
 * called with X402_* pointing at the chain: `worker.fetch(request, chainEnv, ctx)`, with the
 * suite's real bindings (Postgres, the Meter Durable Objects) otherwise unchanged.
 *
 * The client is the real one: @x402/fetch's wrapFetchWithPayment with @x402/evm's exact
 * scheme and the payer's viem account, which signs EIP-3009 authorizations; token balances
 * are read from the chain.
 */
import {
  createExecutionContext,
  runInDurableObject,
  SELF,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
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
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Env } from "../worker/env";
import worker from "../worker/index";
import { expectError, type Json, signAuth } from "./helpers";

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
  payerKey: Hex;
  payer: Address;
}

const chain = JSON.parse(env.LOCAL_CHAIN) as ChainDetails;
const BASE = "http://memory.test";

/** The suite's bindings with payments pointed at the local chain (in-process facilitator). */
const chainEnv: Env = {
  ...env,
  X402_NETWORK: chain.network,
  X402_ASSET: chain.asset,
  X402_ASSET_NAME: chain.assetName,
  X402_ASSET_VERSION: chain.assetVersion,
  X402_PAY_TO: chain.payTo,
  X402_RPC_URL: chain.rpcUrl,
  X402_FACILITATOR_KEY: chain.facilitatorKey,
};

/** The Worker configured for the chain, as a fetch function. */
async function chainFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(input, init), chainEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

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

async function balances(payer: Address) {
  const [p, t] = await Promise.all([balanceOf(payer), balanceOf(chain.payTo)]);
  return { payer: p, payTo: t };
}

async function mint(to: Address, amount: bigint) {
  const hash = await minter.writeContract({
    address: chain.asset,
    abi: parseAbi(["function mint(address to, uint256 value)"]),
    functionName: "mint",
    args: [to, amount],
  });
  await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
}

/** The x402 client of a wallet: the exact EVM scheme, and the test token allowed. */
function x402For(account: PrivateKeyAccount) {
  return x402Client.fromConfig({
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

interface Payer {
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

function newPayer(): Payer {
  const account = privateKeyToAccount(generatePrivateKey());
  const sentPayments: string[] = [];
  const signed = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set("x-wallet-auth", await signAuth(account));
    const payment = request.headers.get("payment-signature");
    if (payment) sentPayments.push(payment);
    return chainFetch(request);
  };
  const paying = wrapFetchWithPayment(signed, x402For(account));
  return {
    account,
    address: account.address,
    wallet: account.address.toLowerCase(),
    fetch: (path, init) => signed(`${BASE}${path}`, init),
    pay: (path, init) => paying(`${BASE}${path}`, init),
    sentPayments,
  };
}

const post = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

const json = async (res: Response): Promise<Json> => JSON.parse(await res.text());

const meterOf = (wallet: string) => env.METER.get(env.METER.idFromName(`wallet:${wallet}`));

/** Uses up a wallet's free allowance directly in its Meter (the first test does it by HTTP). */
async function exhaustAllowance(wallet: string) {
  await runInDurableObject(meterOf(wallet), (_instance, state) => {
    state.storage.sql.exec(
      "INSERT INTO free_tier (id, used) VALUES (1, 100) ON CONFLICT (id) DO UPDATE SET used = 100",
    );
  });
}

const unique = (label: string) => `${label} ${crypto.randomUUID()}`;

/** Date only (timers and I/O run normally), shared by the test and the Worker's isolate. */
function freezeClockAt(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: ms });
}

afterEach(() => {
  vi.useRealTimers();
});

beforeAll(async () => {
  // The chain is up and the token deployed with the EIP-712 domain the Worker announces.
  expect(await publicClient.getChainId()).toBe(chain.chainId);
  expect(await balanceOf(chain.payer)).toBeGreaterThan(0n);
});

function expectedRequirement(amount: string) {
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

describe("x402 end to end: free allowance, then pay", () => {
  it("serves 100 free calls, answers 402 with the exact header, settles a paid call", async () => {
    const p = newPayer();
    await mint(p.address, 1_000_000n);
    const minute = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    freezeClockAt(minute + 10_000);
    const before = await balances(p.address);
    expect(before.payer).toBe(1_000_000n);

    // 100 cheap paid calls through the x402 client, 10 at a time, within one rate window:
    // all free, none paid (the client never saw a 402).
    let next = 0;
    const statuses: number[] = [];
    const lane = async () => {
      while (next < 100) {
        next++;
        const res = await p.pay("/v1/recall", post({ query: "anything at all" }));
        statuses.push(res.status);
        expect(res.headers.get("payment-response")).toBeNull();
        await res.text();
      }
    };
    await Promise.all(Array.from({ length: 10 }, lane));
    expect(statuses).toEqual(Array(100).fill(200));
    expect(p.sentPayments).toEqual([]);
    expect(await balances(p.address)).toEqual(before);

    // A new rate window; the allowance stays used.
    freezeClockAt(minute + 70_000);
    const status = await json(await p.fetch("/v1/free-tier/status"));
    expect(status).toMatchObject({ free_tier_used: 100, free_tier_remaining: 0 });

    // Without payment: 402, our error body, and PAYMENT-REQUIRED exactly as clients expect.
    const unpaid = await p.fetch("/v1/store", post({ content: unique("unpaid") }));
    expect(unpaid.status).toBe(402);
    expect(await json(unpaid)).toEqual({
      error: {
        code: "PAYMENT_REQUIRED",
        message: "Free allowance used: pay per request with x402",
        details: {
          price: {
            amount: "5000",
            usd: "0.005",
            asset: chain.asset,
            symbol: "USDC",
            decimals: 6,
            network: chain.network,
          },
        },
        request_id: expect.any(String),
      },
    });
    const header = unpaid.headers.get("payment-required");
    expect(header).toBeTruthy();
    const required = JSON.parse(atob(header ?? "")) as PaymentRequired;
    expect(required).toEqual({
      x402Version: 2,
      resource: {
        url: `${BASE}/v1/store`,
        description: "POST /v1/store: 0.005 USDC per call",
        mimeType: "application/json",
      },
      accepts: [expectedRequirement("5000")],
      extensions: expect.any(Object), // bazaar, payment-identifier, sign-in-with-x: test/x402/
    });
    expect(unpaid.headers.get("x-ratelimit-limit")).toBe("100");

    // The client pays: 201, PAYMENT-RESPONSE, and exactly the price moved on chain.
    const content = unique("paid for");
    const paid = await p.pay("/v1/store", post({ content }));
    expect(paid.status).toBe(201);
    const stored = await json(paid);
    expect(p.sentPayments).toHaveLength(1);
    const receipt = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "");
    expect(receipt).toMatchObject({ success: true, network: chain.network });
    expect(receipt.payer?.toLowerCase()).toBe(p.wallet);
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const tx = await publicClient.getTransactionReceipt({ hash: receipt.transaction as Hex });
    expect(tx.status).toBe("success");
    const after = await balances(p.address);
    expect(after.payer).toBe(before.payer - 5000n);
    expect(after.payTo).toBe(before.payTo + 5000n);

    // The memory is the payer's; the allowance was not touched by the paid call.
    const got = await json(await p.fetch(`/v1/memories/${stored.id}`));
    expect(got.content).toBe(content);
    expect(await json(await p.fetch("/v1/free-tier/status"))).toMatchObject({
      free_tier_used: 100,
    });
  }, 120_000);

  it("prices each class: batch store 40000, the 0.01 class 10000", async () => {
    const p = newPayer();
    await exhaustAllowance(p.wallet);
    const cases: Array<[string, unknown, string]> = [
      ["/v1/store/batch", { memories: [{ content: unique("b") }] }, "40000"],
      ["/v1/memories/extract", { text: "x" }, "10000"],
      ["/v1/recall", { query: "x" }, "5000"],
    ];
    for (const [path, body, amount] of cases) {
      const res = await p.fetch(path, post(body));
      expect(res.status, path).toBe(402);
      const required = decodePaymentRequiredHeader(res.headers.get("payment-required") ?? "");
      expect(required.accepts, path).toEqual([expectedRequirement(amount)]);
      expect(required.resource.url).toBe(`${BASE}${path}`);
    }
  });
});

describe("x402 refusals: nothing moves", () => {
  it("refuses a replayed PAYMENT-SIGNATURE before the handler runs", async () => {
    const p = newPayer();
    await mint(p.address, 1_000_000n);
    await exhaustAllowance(p.wallet);
    const paid = await p.pay("/v1/store", post({ content: unique("original") }));
    expect(paid.status).toBe(201);
    const [signature] = p.sentPayments;
    const afterFirst = await balances(p.address);

    const replay = await p.fetch("/v1/store", {
      ...post({ content: unique("replayed") }),
      headers: { "content-type": "application/json", "payment-signature": signature ?? "" },
    });
    const error = expectError(
      { status: replay.status, body: await json(replay), headers: replay.headers },
      402,
      "PAYMENT_REQUIRED",
    );
    expect(error.details.reason).toBe("payment already used: its authorization nonce was settled");
    const header = decodePaymentRequiredHeader(replay.headers.get("payment-required") ?? "");
    expect(header.error).toBe(error.details.reason);
    expect(header.accepts).toEqual([expectedRequirement("5000")]);
    expect(replay.headers.get("payment-response")).toBeNull();
    expect(await balances(p.address)).toEqual(afterFirst);

    // Second line of defence: were the nonce forgotten by the payer's Meter, the facilitator's
    // verification still finds it used on chain, and the handler does not run either.
    await runInDurableObject(meterOf(p.wallet), (_instance, state) => {
      state.storage.sql.exec("DELETE FROM payment_nonce");
    });
    const again = await p.fetch("/v1/store", {
      ...post({ content: unique("replayed again") }),
      headers: { "content-type": "application/json", "payment-signature": signature ?? "" },
    });
    expect(again.status).toBe(402);
    expect((await json(again)).error.details.reason).toBe("invalid_exact_evm_nonce_already_used");
    expect(await balances(p.address)).toEqual(afterFirst);
    // Only the original was stored.
    expect((await json(await p.fetch("/v1/memories"))).total).toBe(1);
  });

  it("lets exactly one of two concurrent uses of one payment through", async () => {
    const p = newPayer();
    await mint(p.address, 1_000_000n);
    await exhaustAllowance(p.wallet);
    const required = decodePaymentRequiredHeader(
      (await p.fetch("/v1/store", post({ content: "x" }))).headers.get("payment-required") ?? "",
    );
    const payload = await x402For(p.account).createPaymentPayload(required);
    const header = encodePaymentSignatureHeader(payload);
    const before = await balances(p.address);
    const send = (content: string) =>
      p.fetch("/v1/store", {
        ...post({ content }),
        headers: { "content-type": "application/json", "payment-signature": header },
      });
    const results = await Promise.all([send(unique("one")), send(unique("two"))]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 402]);
    const refused = results.find((r) => r.status === 402);
    expect((await json(refused ?? new Response("{}"))).error.details.reason).toMatch(
      /^payment already (in use by another request|used: its authorization nonce was settled)$/,
    );
    const after = await balances(p.address);
    expect(after.payer).toBe(before.payer - 5000n);
    expect(after.payTo).toBe(before.payTo + 5000n);
    expect((await json(await p.fetch("/v1/memories"))).total).toBe(1);
  });

  it("does not settle when the handler fails (422), and the payment stays usable", async () => {
    const p = newPayer();
    await mint(p.address, 1_000_000n);
    await exhaustAllowance(p.wallet);
    const before = await balances(p.address);
    const failed = await p.pay("/v1/store", post({ content: "" }));
    expect(failed.status).toBe(422);
    expect((await json(failed)).error.code).toBe("VALIDATION_ERROR");
    expect(failed.headers.get("payment-response")).toBeNull();
    expect(p.sentPayments).toHaveLength(1);
    expect(await balances(p.address)).toEqual(before);

    // Nothing was transferred, so the same authorization can pay for a call that succeeds.
    const retried = await p.fetch("/v1/store", {
      ...post({ content: unique("second try") }),
      headers: { "content-type": "application/json", "payment-signature": p.sentPayments[0] ?? "" },
    });
    expect(retried.status).toBe(201);
    expect(decodePaymentResponseHeader(retried.headers.get("payment-response") ?? "").success).toBe(
      true,
    );
    const after = await balances(p.address);
    expect(after.payer).toBe(before.payer - 5000n);
    expect(after.payTo).toBe(before.payTo + 5000n);
  });

  it("answers 402 with the reason for a wrong amount, a wrong network, or no funds", async () => {
    const p = newPayer();
    await mint(p.address, 1_000_000n);
    await exhaustAllowance(p.wallet);
    const required = decodePaymentRequiredHeader(
      (await p.fetch("/v1/store", post({ content: "x" }))).headers.get("payment-required") ?? "",
    );
    const [requirement] = required.accepts;
    if (!requirement) throw new Error("no requirement");
    const client = x402For(p.account);
    const before = await balances(p.address);
    const sendWith = async (payload: PaymentPayload) => {
      const res = await p.fetch("/v1/store", {
        ...post({ content: unique("refused") }),
        headers: {
          "content-type": "application/json",
          "payment-signature": encodePaymentSignatureHeader(payload),
        },
      });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(402);
      expect(res.headers.get("payment-required")).toBeTruthy();
      return body.error.details.reason as string;
    };
    const mismatch =
      "the payment does not match this call's requirement (scheme, network, asset, amount, payTo)";

    // The client signs for less than the price (its `accepted` says so).
    const cheaper = await client.createPaymentPayload({
      ...required,
      accepts: [{ ...requirement, amount: "1000" }],
    });
    expect(await sendWith(cheaper)).toBe(mismatch);

    // `accepted` copied from the 402, but the signed authorization is for less: only the
    // facilitator's verification can tell.
    const honestLooking = await client.createPaymentPayload({
      ...required,
      accepts: [{ ...requirement, amount: "1000" }],
    });
    expect(await sendWith({ ...honestLooking, accepted: requirement })).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch",
    );

    // Signed for Base Sepolia instead of the local chain.
    const otherNetwork = await client.createPaymentPayload({
      ...required,
      accepts: [{ ...requirement, network: "eip155:84532" }],
    });
    expect(await sendWith(otherNetwork)).toBe(mismatch);

    // A wallet without tokens: verification simulates the transfer and explains the failure.
    const broke = newPayer();
    const unfunded = await x402For(broke.account).createPaymentPayload(required);
    expect(await sendWith(unfunded)).toBe("invalid_exact_evm_insufficient_balance");

    expect(await balances(p.address)).toEqual(before);
    expect((await json(await p.fetch("/v1/memories"))).total).toBe(0);
  });
});

describe("identity from the payment alone (spec, Authentication, way 3)", () => {
  it("stores the memory for the payer, with no x-wallet-auth, leaving its allowance", async () => {
    const payer = newPayer();
    await mint(payer.address, 1_000_000n);
    // The requirement of a store call, as any exhausted wallet's 402 announces it.
    const other = newPayer();
    await exhaustAllowance(other.wallet);
    const required = decodePaymentRequiredHeader(
      (await other.fetch("/v1/store", post({ content: "x" }))).headers.get("payment-required") ??
        "",
    );
    const payload = await x402For(payer.account).createPaymentPayload(required);
    const before = await balances(payer.address);

    const content = unique("paid without a wallet header");
    const res = await chainFetch(`${BASE}/v1/store`, {
      ...post({ content }),
      headers: {
        "content-type": "application/json",
        "payment-signature": encodePaymentSignatureHeader(payload),
      },
    });
    expect(res.status).toBe(201);
    const { id } = await json(res);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response") ?? "").success).toBe(
      true,
    );
    const after = await balances(payer.address);
    expect(after.payer).toBe(before.payer - 5000n);
    expect(after.payTo).toBe(before.payTo + 5000n);

    // The memory belongs to the payer, not to anyone else; the payer's allowance is intact.
    expect((await json(await payer.fetch(`/v1/memories/${id}`))).content).toBe(content);
    expect((await other.fetch(`/v1/memories/${id}`)).status).toBe(404);
    expect(await json(await payer.fetch("/v1/free-tier/status"))).toMatchObject({
      wallet: payer.wallet,
      free_tier_used: 0,
    });
  });

  it("refuses a payment whose signature is not the payer's (401), and free endpoints ignore it", async () => {
    const payer = newPayer();
    const other = newPayer();
    await exhaustAllowance(other.wallet);
    const required = decodePaymentRequiredHeader(
      (await other.fetch("/v1/store", post({ content: "x" }))).headers.get("payment-required") ??
        "",
    );
    const payload = await x402For(payer.account).createPaymentPayload(required);
    const forged = {
      ...payload,
      payload: {
        ...payload.payload,
        authorization: {
          ...(payload.payload.authorization as Record<string, unknown>),
          from: other.address,
        },
      },
    };
    const send = (path: string, method: string, p: PaymentPayload) =>
      chainFetch(`${BASE}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          "payment-signature": encodePaymentSignatureHeader(p),
        },
        ...(method === "POST" ? { body: JSON.stringify({ content: "forged" }) } : {}),
      });
    const res = await send("/v1/store", "POST", forged);
    expect(res.status).toBe(401);
    expect((await json(res)).error.message).toBe(
      "PAYMENT-SIGNATURE is not signed by authorization.from",
    );
    expect((await send("/v1/store", "POST", { ...payload, x402Version: 1 })).status).toBe(401);
    // A payment is not an identity on a free endpoint.
    expect((await send("/v1/memories", "GET", payload)).status).toBe(401);
  });
});

describe("Meter payment nonces", () => {
  const NOW = 2_000_000_000;
  const nonce = () => `0x${crypto.randomUUID().replaceAll("-", "").padEnd(64, "a")}`;

  it("claims a nonce once, until it is released; a settled one stays taken", async () => {
    const stub = meterOf(`test-nonces-${crypto.randomUUID()}`);
    const a = nonce();
    expect(await stub.claimPayment(a, NOW + 300, NOW)).toEqual({ claimed: true });
    expect(await stub.claimPayment(a.toUpperCase().replace("0X", "0x"), NOW + 300, NOW)).toEqual({
      claimed: false,
      state: "pending",
    });
    await stub.releasePayment(a);
    expect(await stub.claimPayment(a, NOW + 300, NOW)).toEqual({ claimed: true });
    await stub.settlePayment(a);
    expect(await stub.claimPayment(a, NOW + 300, NOW)).toEqual({
      claimed: false,
      state: "settled",
    });
    await stub.releasePayment(a); // a settled payment is never released
    expect(await stub.claimPayment(a, NOW + 300, NOW + 10)).toMatchObject({ claimed: false });
  });

  it("lets exactly one of 50 concurrent claims of a nonce win", async () => {
    const stub = meterOf(`test-nonces-${crypto.randomUUID()}`);
    const a = nonce();
    const claims = await Promise.all(
      Array.from({ length: 50 }, () => stub.claimPayment(a, NOW + 300, NOW)),
    );
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
  });

  it("forgets nonces whose authorization has expired", async () => {
    const stub = meterOf(`test-nonces-${crypto.randomUUID()}`);
    const a = nonce();
    const b = nonce();
    await stub.claimPayment(a, NOW + 60, NOW);
    await stub.settlePayment(a);
    await stub.claimPayment(b, NOW + 600, NOW);
    // A claim after `a` expired prunes it; `b` is still held.
    await stub.claimPayment(nonce(), NOW + 900, NOW + 61);
    const rows = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql.exec<{ nonce: string }>("SELECT nonce FROM payment_nonce").toArray(),
    );
    expect(rows.map((r) => r.nonce)).not.toContain(a);
    expect(rows.map((r) => r.nonce)).toContain(b);
    expect(await stub.claimPayment(a, NOW + 900, NOW + 61)).toEqual({ claimed: true });
  });
});

describe("payments not configured (the suite's default settings)", () => {
  it("still answers an x402-shaped 402 that says nothing can be paid", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await exhaustAllowance(account.address.toLowerCase());
    const call = async (headers: Record<string, string> = {}) =>
      SELF.fetch(`${BASE}/v1/store`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-wallet-auth": await signAuth(account),
          ...headers,
        },
        body: JSON.stringify({ content: "x" }),
      });
    const res = await call();
    expect(res.status).toBe(402);
    expect((await json(res)).error.details.price).toMatchObject({
      network: "eip155:8453",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    });
    expect(decodePaymentRequiredHeader(res.headers.get("payment-required") ?? "")).toEqual({
      x402Version: 2,
      error: "Payments are not configured on this service",
      resource: {
        url: `${BASE}/v1/store`,
        description: "POST /v1/store: 0.005 USDC per call",
        mimeType: "application/json",
      },
      accepts: [],
      extensions: expect.any(Object), // bazaar, payment-identifier, sign-in-with-x: test/x402/
    });
    const paid = await call({ "payment-signature": btoa("{}") });
    expect(paid.status).toBe(402);
    expect((await json(paid)).error.details.reason).toBe(
      "Payments are not configured on this service",
    );
  });
});
