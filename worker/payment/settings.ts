/**
 * What the service accepts as payment, from configuration (worker/env.ts, X402_*):
 *
 * - X402_NETWORK: `eip155:8453` (Base, default), `eip155:84532` (Base Sepolia) or any other
 *   EVM chain id such as `eip155:31337` (the local anvil chain of `npm run dev -- --chain`).
 * - X402_ASSET, X402_ASSET_NAME, X402_ASSET_VERSION: the EIP-3009 token and its EIP-712
 *   domain. Default: the network's USDC as x402 knows it (Base: "USD Coin" / "2"; Base
 *   Sepolia: "USDC" / "2"); on other networks X402_ASSET is required and the domain
 *   defaults to "USD Coin" / "2".
 * - X402_PAY_TO: the receiving address. Without it payments are OFF: paid endpoints still
 *   answer 402 with a well-formed PAYMENT-REQUIRED header, but its `accepts` list is empty
 *   and its `error` says payments are not configured, so x402 clients fail with a clear
 *   message instead of paying into nothing.
 * - The facilitator: X402_FACILITATOR_URL (a remote one, production), or X402_RPC_URL +
 *   X402_FACILITATOR_KEY (in-process: this Worker verifies and settles against the RPC
 *   endpoint itself, paying gas from that key). Exactly one of the two with X402_PAY_TO.
 *
 * A contradiction here is a 500 on paid calls only (logged, never shown): free endpoints
 * keep working while the operator fixes the payment settings.
 */
import type { Network } from "@x402/core/types";
import { getDefaultAsset } from "@x402/evm";
import type { Address, Hex } from "viem";
import { getAddress } from "viem";
import type { Config } from "../env";
import { ApiError } from "../errors";

/** The default network: Base mainnet. */
export const BASE_MAINNET = "eip155:8453";

/** The token every price is quoted in: USDC's 6 decimals (meter/prices.ts). */
export const PRICE_DECIMALS = 6;
export const PRICE_SYMBOL = "USDC";
/** How long a client's signed authorization is valid for (x402 maxTimeoutSeconds). */
export const MAX_TIMEOUT_SECONDS = 300;

export type FacilitatorSettings =
  | { kind: "remote"; url: string }
  | { kind: "in-process"; rpcUrl: string; privateKey: Hex };

export interface PaymentSettings {
  network: Network;
  chainId: number;
  asset: Address;
  assetName: string;
  assetVersion: string;
  /** Undefined when payments are off (no X402_PAY_TO). */
  payTo?: Address;
  facilitator?: FacilitatorSettings;
}

function misconfigured(problem: string): ApiError {
  console.error(`payment configuration error: ${problem}`);
  return new ApiError("INTERNAL_ERROR", "Service is misconfigured");
}

function defaultAssetOf(network: Network) {
  try {
    return getDefaultAsset(network);
  } catch {
    return undefined;
  }
}

/** The CAIP-2 network payments and sign-in messages are for. */
export const paymentNetwork = (config: Config): Network =>
  (config.X402_NETWORK ?? BASE_MAINNET) as Network;

/** The payment settings of a parsed config; throws a logged 500 on contradictions. */
export function paymentSettings(config: Config): PaymentSettings {
  const network = paymentNetwork(config);
  const chainId = Number(network.split(":")[1]);
  const known = config.X402_ASSET ? undefined : defaultAssetOf(network);
  const asset = config.X402_ASSET ?? known?.asset;
  if (!asset) throw misconfigured(`X402_ASSET is required on ${network} (no default USDC)`);
  const settings: PaymentSettings = {
    network,
    chainId,
    asset: getAddress(asset),
    assetName: config.X402_ASSET_NAME ?? known?.name ?? "USD Coin",
    assetVersion: config.X402_ASSET_VERSION ?? known?.version ?? "2",
  };
  const remote = config.X402_FACILITATOR_URL;
  const rpcUrl = config.X402_RPC_URL;
  const key = config.X402_FACILITATOR_KEY;
  if (remote && (rpcUrl || key)) {
    throw misconfigured(
      "set X402_FACILITATOR_URL or X402_RPC_URL + X402_FACILITATOR_KEY, not both",
    );
  }
  if (Boolean(rpcUrl) !== Boolean(key)) {
    throw misconfigured(
      "the in-process facilitator needs both X402_RPC_URL and X402_FACILITATOR_KEY",
    );
  }
  if (!config.X402_PAY_TO) return settings;
  settings.payTo = getAddress(config.X402_PAY_TO);
  if (remote) settings.facilitator = { kind: "remote", url: remote };
  else if (rpcUrl && key)
    settings.facilitator = { kind: "in-process", rpcUrl, privateKey: key as Hex };
  else {
    throw misconfigured(
      "X402_PAY_TO is set but no facilitator: set X402_FACILITATOR_URL or X402_RPC_URL + X402_FACILITATOR_KEY",
    );
  }
  return settings;
}
