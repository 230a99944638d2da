/**
 * The x402 resource server (from @x402/core) that verifies and settles payments through a
 * facilitator: a remote one by URL, or an in-process x402Facilitator with the exact EVM
 * scheme (@x402/evm) that talks to an RPC endpoint with its own key.
 *
 * Workers have no env at module load, so the server is built on the first paid request
 * from that request's settings and kept for the isolate, keyed by those settings (another
 * configuration gets its own). Only a server whose initialize() (the facilitator's
 * supported kinds) succeeded is kept; a failed start is retried on the next request.
 */
import { x402Facilitator } from "@x402/core/facilitator";
import {
  type FacilitatorClient,
  HTTPFacilitatorClient,
  x402ResourceServer,
} from "@x402/core/server";
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
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
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
import type { FacilitatorSettings, PaymentSettings } from "./settings";

const servers = new Map<string, x402ResourceServer>();

/** In memory only: the key may hold the facilitator's private key, it is never logged. */
function cacheKey(settings: PaymentSettings, facilitator: FacilitatorSettings): string {
  const where =
    facilitator.kind === "remote"
      ? facilitator.url
      : `${facilitator.rpcUrl}#${facilitator.privateKey}`;
  return `${settings.network}|${facilitator.kind}|${where}`;
}

/** The initialized resource server for these settings (payments must be on). */
export async function resourceServer(
  settings: PaymentSettings,
  facilitator: FacilitatorSettings,
): Promise<x402ResourceServer> {
  const key = cacheKey(settings, facilitator);
  const cached = servers.get(key);
  if (cached) return cached;
  const client =
    facilitator.kind === "remote"
      ? new HTTPFacilitatorClient({ url: facilitator.url })
      : inProcessFacilitator(settings, facilitator.rpcUrl, facilitator.privateKey);
  const server = new x402ResourceServer(client).register(
    settings.network,
    new ExactEvmServerScheme(),
  );
  await server.initialize();
  servers.set(key, server);
  return server;
}

/** How often a transaction refused for its nonce is sent again. */
const NONCE_ATTEMPTS = 5;

/**
 * Sends a transaction, again with a fresh nonce while the chain refuses its nonce as used (a
 * transaction refused so never ran: sending it again cannot pay twice).
 */
async function withFreshNonce<T>(address: Hex, chainId: number, send: () => Promise<T>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const taken = /nonce too low|nonce has already been used|underpriced/i.test(String(err));
      if (!taken || attempt === NONCE_ATTEMPTS) throw err;
      nonceManager.reset({ address, chainId });
    }
  }
}

/** An x402Facilitator in this Worker, verifying and settling against `rpcUrl` with `key`. */
function inProcessFacilitator(
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
  // viem's nonce manager hands out the facilitator's transaction nonces within the isolate,
  // so settlements running at once do not reuse one (the chain would refuse the second).
  // Other isolates (and other Workers with the same key) send from the account too, so a
  // nonce can still be taken: the chain refuses the transaction before it runs, and it is
  // sent again with a fresh nonce (withFreshNonce).
  const account = privateKeyToAccount(key, { nonceManager });
  // Receipts are polled every 500 ms (Base makes a block every 2 s; anvil mines at once).
  const client = createWalletClient({
    account,
    chain,
    transport: http(rpcUrl),
    pollingInterval: 500,
  }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) =>
      client.readContract({ ...args, abi: args.abi as Abi, args: args.args ?? [] }),
    verifyTypedData: (args) =>
      client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (args) =>
      withFreshNonce(account.address, settings.chainId, () =>
        client.writeContract({
          address: args.address,
          abi: args.abi as Abi,
          functionName: args.functionName,
          args: args.args,
          ...(args.gas === undefined ? {} : { gas: args.gas }),
          ...(args.dataSuffix === undefined ? {} : { dataSuffix: args.dataSuffix }),
        }),
      ),
    sendTransaction: (args) =>
      withFreshNonce(account.address, settings.chainId, () =>
        client.sendTransaction({ to: args.to, data: args.data }),
      ),
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
