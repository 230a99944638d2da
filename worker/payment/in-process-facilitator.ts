/**
 * The in-process facilitator: an x402Facilitator with the exact EVM scheme (@x402/evm) in this
 * Worker, verifying and settling against an RPC endpoint with its own key (X402_RPC_URL,
 * X402_FACILITATOR_KEY), paying the gas of each settlement.
 *
 * Its transactions are sent so that no settlement waits on another's nonce for ever:
 * - gas (and fees) are estimated before a nonce is taken: a settlement the chain would refuse
 *   (the payer's balance already spent by another at once) fails there, holding no nonce;
 * - within the isolate, one transaction is signed and sent at a time (not mined: receipts are
 *   awaited in parallel), so a send that fails cannot leave a gap that later ones wait behind;
 * - other isolates send from the account too: a nonce they took is refused by the chain
 *   before anything runs, and the transaction is sent again with a fresh one.
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
import {
  type Abi,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  nonceManager,
  publicActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { PaymentSettings } from "./settings";

/** How often a transaction refused for its nonce is sent again. */
const NONCE_ATTEMPTS = 5;

/** The isolate's transactions, one signed and sent after another. */
let sending: Promise<unknown> = Promise.resolve();

function inTurn<T>(send: () => Promise<T>): Promise<T> {
  const turn = sending.then(send, send);
  sending = turn.catch(() => {});
  return turn;
}

/**
 * Sends a transaction in its turn, and again with a fresh nonce while the chain refuses its
 * nonce as used (refused, it never ran: sending it again cannot pay twice).
 */
function send<T>(address: Hex, chainId: number, transaction: () => Promise<T>): Promise<T> {
  return inTurn(async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transaction();
      } catch (err) {
        const taken = /nonce too low|nonce has already been used|underpriced/i.test(String(err));
        if (!taken || attempt === NONCE_ATTEMPTS) throw err;
        nonceManager.reset({ address, chainId });
      }
    }
  });
}

/** An x402Facilitator in this Worker, verifying and settling against `rpcUrl` with `key`. */
export function inProcessFacilitator(
  settings: PaymentSettings,
  rpcUrl: string,
  key: Hex,
): FacilitatorClient {
  const chain = defineChain({
    id: settings.chainId,
    name: settings.network,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  // viem's nonce manager hands out the facilitator's nonces within the isolate.
  const account = privateKeyToAccount(key, { nonceManager });
  // Receipts are polled every 500 ms (Base makes a block every 2 s; anvil mines at once).
  const client = createWalletClient({
    account,
    chain,
    transport: http(rpcUrl),
    pollingInterval: 500,
  }).extend(publicActions);
  const { address } = account;
  // Fees are read before the transaction's turn, like its gas, so the turn holds only the
  // nonce, the signature and the send; where they cannot be read, viem reads them in the turn.
  const feesOutsideTheTurn = () =>
    client.estimateFeesPerGas().catch(() => ({}) as Record<string, never>);
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
      const [gas, fees] = await Promise.all([
        args.gas ?? client.estimateContractGas({ ...call, account }),
        feesOutsideTheTurn(),
      ]);
      return send(address, settings.chainId, () => client.writeContract({ ...call, gas, ...fees }));
    },
    sendTransaction: async (args) => {
      const [gas, fees] = await Promise.all([
        client.estimateGas({ account, to: args.to, data: args.data }),
        feesOutsideTheTurn(),
      ]);
      return send(address, settings.chainId, () =>
        client.sendTransaction({ to: args.to, data: args.data, gas, ...fees }),
      );
    },
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
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
