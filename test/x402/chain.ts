/**
 * The x402 extension tests' world: the local chain, the Worker pointed at it and its token
 * helpers come from test/payment/chain.ts; here, what these tests add: a payer that builds
 * payments itself (to attach a payment identifier, or send one twice), the Transfer events a
 * payer made, and a 402's PaymentRequired.
 */
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { type Address, parseAbi } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { type ApiResponse, request, signAuth, type WorkerFetch } from "../helpers";
import { chain, chainFetch, exhaustAllowance, mint, publicClient, x402For } from "../payment/chain";

export {
  balances,
  chain,
  chainFetch,
  exhaustAllowance,
  expectUnchanged,
  meterOf,
} from "../payment/chain";
export { workerWith } from "../worker-with";

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
  const client = x402For(account);
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

/**
 * A store call's 402 to `p`, then `p`'s signed payment for it (carrying payment identifier `id`
 * when given): the payload, and the PAYMENT-SIGNATURE header that sends it.
 */
export async function storeWithPayment(p: Payer, body: unknown, id?: string) {
  const required = requiredOf(await p.call("POST", "/v1/store", body));
  const payload = await p.pay(required, id);
  return { payload, headers: paymentHeader(payload) };
}
