/**
 * The in-process facilitator: an x402Facilitator with the exact EVM scheme (@x402/evm) in this
 * Worker, verifying and settling against an RPC endpoint with its own key (X402_RPC_URL,
 * X402_FACILITATOR_KEY), paying the gas of each settlement. One is made per paid request.
 *
 * Why per request: a Worker cannot carry I/O from one request to another. viem shares a
 * client's block polling among everyone waiting on that client, so with one client per
 * isolate a receipt wait that the first request's polling served stalled for viem's 180 s
 * timeout once that request had answered (issue #44: paid calls of 180 and 360 s under mixed
 * load). Here nothing but plain numbers outlives a request, and receipts are polled by the
 * request that waits for them, until its deadline.
 *
 * Its transactions are sent so that no settlement waits on another's nonce, and a payment that
 * can no longer succeed costs no gas:
 * - within the isolate, one transaction is checked, signed and sent at a time (its "turn");
 *   receipts are awaited in parallel;
 * - in its turn, the transfer is simulated against the pending state, after every earlier
 *   send: a payment whose payer's balance another payment just spent is refused there, with
 *   no transaction (before the turns were re-checked, concurrent payments over a balance were
 *   mined and reverted, each at the facilitator's gas);
 * - the nonce is the chain's pending count, or one past the isolate's last send when the
 *   endpoint lags; another isolate's nonce refused by the chain is sent again with a fresh one;
 * - a turn is waited for at most TURN_WAIT_MS: a request cancelled in its turn cannot hold up
 *   the isolate's later payments.
 */
import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import type {
  Network,
  PaymentPayload,
  PaymentRequirements,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator";
import { type Abi, createWalletClient, defineChain, type Hex, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { PaymentSettings } from "./settings";

/** How often a transaction refused for its nonce is sent again. */
const NONCE_ATTEMPTS = 5;
/** How long a send waits for the turn before it at most: a cancelled request's turn ends here. */
const TURN_WAIT_MS = 5_000;
/** How often a receipt is asked for (Base makes a block every 2 s; anvil mines at once). */
const RECEIPT_POLL_MS = 200;
/** One JSON-RPC call: after this it counts as failed (viem's own default is 10 s, 3 retries). */
const RPC_TIMEOUT_MS = 5_000;

/** What one request's facilitator did: whether it sent, and what. */
export interface SendLedger {
  /** A send was attempted: from then on, a transfer may have happened. */
  attempted: boolean;
  /** Hashes of transactions the chain accepted. */
  sent: Hex[];
}

/** The isolate's transactions, one checked, signed and sent after another. */
let turns: Promise<unknown> = Promise.resolve();
/** The nonce of the isolate's last accepted send, per account: only a number crosses requests. */
const lastNonce = new Map<string, number>();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function inTurn<T>(work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, TURN_WAIT_MS);
  });
  const turn = Promise.race([turns.catch(() => {}), bound])
    .finally(() => clearTimeout(timer))
    .then(work);
  turns = turn.catch(() => {});
  return turn;
}

const nonceTaken = (err: unknown) =>
  /nonce too low|nonce has already been used|underpriced/i.test(String(err));

/** An x402Facilitator for one request, verifying and settling against `rpcUrl` with `key`. */
export function inProcessFacilitator(
  settings: PaymentSettings,
  rpcUrl: string,
  key: Hex,
  deadlineMs: number,
  ledger: SendLedger,
): FacilitatorClient {
  const chain = defineChain({
    id: settings.chainId,
    name: settings.network,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const account = privateKeyToAccount(key);
  const client = createWalletClient({
    account,
    chain,
    transport: http(rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 1 }),
  }).extend(publicActions);
  const { address } = account;

  /**
   * In its turn: `check` (a simulation against the pending state, which throws for a
   * transaction that would revert, so nothing is sent), then the send with the next nonce.
   */
  const send = (
    check: () => Promise<bigint>,
    transact: (gas: bigint, nonce: number) => Promise<Hex>,
  ) =>
    inTurn(async () => {
      if (Date.now() > deadlineMs) throw new Error("settlement deadline passed before sending");
      const gas = await check();
      for (let attempt = 1; ; attempt++) {
        const pending = await client.getTransactionCount({ address, blockTag: "pending" });
        const last = lastNonce.get(address);
        const nonce = last !== undefined && pending <= last ? last + 1 : pending;
        ledger.attempted = true;
        try {
          const hash = await transact(gas, nonce);
          lastNonce.set(address, nonce);
          ledger.sent.push(hash);
          return hash;
        } catch (err) {
          if (!nonceTaken(err) || attempt === NONCE_ATTEMPTS) throw err;
          // Refused for its nonce, it never ran: sending it again cannot pay twice.
          lastNonce.delete(address);
        }
      }
    });

  // Fees are read before the turn, so the turn holds only the check, the nonce and the send.
  const fees = () => client.estimateFeesPerGas().catch(() => ({}) as Record<string, never>);

  const signer = toFacilitatorEvmSigner({
    address,
    readContract: (args) =>
      client.readContract({ ...args, abi: args.abi as Abi, args: args.args ?? [] }),
    verifyTypedData: (args) =>
      client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: async (args) => {
      const call = {
        address: args.address,
        abi: args.abi as Abi,
        functionName: args.functionName,
        args: args.args,
        ...(args.dataSuffix === undefined ? {} : { dataSuffix: args.dataSuffix }),
      };
      const feeValues = await fees();
      return send(
        () =>
          args.gas !== undefined
            ? Promise.resolve(args.gas)
            : client.estimateContractGas({ ...call, account, blockTag: "pending" }),
        (gas, nonce) => client.writeContract({ ...call, gas, nonce, ...feeValues }),
      );
    },
    sendTransaction: async (args) => {
      const feeValues = await fees();
      return send(
        () => client.estimateGas({ account, to: args.to, data: args.data, blockTag: "pending" }),
        (gas, nonce) =>
          client.sendTransaction({ to: args.to, data: args.data, gas, nonce, ...feeValues }),
      );
    },
    // Polled by this request alone, until its deadline; past it x402 answers
    // `settlement_pending` with the transaction, and the service finds out (outcome.ts).
    waitForTransactionReceipt: async ({ hash }) => {
      for (;;) {
        const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
        if (receipt) return receipt;
        if (Date.now() + RECEIPT_POLL_MS > deadlineMs) {
          throw new Error(`no receipt for ${hash} before the settlement deadline`);
        }
        await sleep(RECEIPT_POLL_MS);
      }
    },
    getCode: (args) => client.getCode(args),
  });
  const facilitator = new x402Facilitator().register(
    settings.network,
    new ExactEvmFacilitatorScheme(signer),
  );
  return {
    verify: (payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> =>
      facilitator.verify(payload, requirements),
    settle: (payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> =>
      facilitator.settle(payload, requirements),
    getSupported: async (): Promise<SupportedResponse> => {
      const supported = facilitator.getSupported();
      return {
        ...supported,
        kinds: supported.kinds.map((kind) => ({ ...kind, network: kind.network as Network })),
      };
    },
  };
}
