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
 * - X402_RPC_URL is also how the service reads the chain itself when a settlement's outcome is
 *   unknown (payment/outcome.ts): with a remote facilitator it is read-only, and on Base and
 *   Base Sepolia it defaults to their public endpoints; on any other network a remote
 *   facilitator needs it.
 *
 * A contradiction here (paymentProblems) is reported by GET /health and logged, and is a 503 on
 * the paid calls that need a payment: free endpoints keep working meanwhile.
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

/** Public read endpoints of the networks x402 knows USDC on, for the chain checks. */
const PUBLIC_RPC: Record<string, string> = {
  "eip155:8453": "https://mainnet.base.org",
  "eip155:84532": "https://sepolia.base.org",
};

export interface PaymentSettings {
  network: Network;
  chainId: number;
  asset: Address;
  assetName: string;
  assetVersion: string;
  /** Undefined when payments are off (no X402_PAY_TO). */
  payTo?: Address;
  facilitator?: FacilitatorSettings;
  /** Where the service reads the chain (authorization states, receipts); set with payTo. */
  rpcUrl?: string;
}

function unavailable(problems: string[]): ApiError {
  console.error(`payment configuration error: ${problems.join("; ")}`);
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    "Payments are unavailable: this service's payment settings contradict each other (its operator can see why at GET /health)",
  );
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

/**
 * What contradicts itself in the payment settings, each said so an operator can fix it; empty
 * when they agree. /health reports these, the Worker logs them once per isolate, and
 * `npm run dev` prints them at start (docs/payments.md, "Settings that contradict").
 */
export function paymentProblems(config: Config): string[] {
  const problems: string[] = [];
  const network = paymentNetwork(config);
  const remote = config.X402_FACILITATOR_URL;
  const rpcUrl = config.X402_RPC_URL;
  const key = config.X402_FACILITATOR_KEY;
  if (!config.X402_ASSET && !defaultAssetOf(network)) {
    problems.push(`X402_ASSET is required on ${network}: x402 knows no USDC there`);
  }
  if (remote && key) {
    problems.push(
      "X402_FACILITATOR_URL and X402_FACILITATOR_KEY are both set: choose one facilitator",
    );
  }
  if (!remote && Boolean(rpcUrl) !== Boolean(key)) {
    problems.push("the in-process facilitator needs both X402_RPC_URL and X402_FACILITATOR_KEY");
  }
  if (remote && !rpcUrl && !PUBLIC_RPC[network]) {
    problems.push(
      `X402_FACILITATOR_URL on ${network} needs X402_RPC_URL too: the service reads the chain itself when a settlement's outcome is unknown`,
    );
  }
  const facilitator = Boolean(remote || rpcUrl || key);
  if (config.X402_PAY_TO && !facilitator) {
    problems.push(
      "X402_PAY_TO is set but no facilitator: set X402_FACILITATOR_URL, or X402_RPC_URL and X402_FACILITATOR_KEY",
    );
  }
  if (!config.X402_PAY_TO && facilitator) {
    problems.push("a facilitator is set but X402_PAY_TO is not: nothing can be paid");
  }
  if (config.X402_PAY_TO && config.METERING === "off") {
    problems.push("X402_PAY_TO is set but METERING=off: every paid call is free, none is paid");
  }
  return problems;
}

let reported = false;

/** Logs the payment settings' problems, once per isolate (Workers have no start-up hook). */
export function reportPaymentProblemsOnce(config: Config): void {
  if (reported) return;
  reported = true;
  const problems = paymentProblems(config);
  if (problems.length > 0) {
    console.error(`payment configuration: ${problems.join("; ")} (GET /health reports them)`);
  }
}

/**
 * The payment settings of a parsed config. Settings that contradict each other (see
 * paymentProblems) are a 503 on the paid calls that need them: free calls, and paid calls the
 * free allowance covers, keep working while the operator fixes them.
 */
export function paymentSettings(config: Config): PaymentSettings {
  const problems = paymentProblems(config);
  if (problems.length > 0) throw unavailable(problems);
  const network = paymentNetwork(config);
  const known = config.X402_ASSET ? undefined : defaultAssetOf(network);
  const asset = config.X402_ASSET ?? known?.asset ?? "";
  const settings: PaymentSettings = {
    network,
    chainId: Number(network.split(":")[1]),
    asset: getAddress(asset),
    assetName: config.X402_ASSET_NAME ?? known?.name ?? "USD Coin",
    assetVersion: config.X402_ASSET_VERSION ?? known?.version ?? "2",
  };
  const { X402_PAY_TO: payTo, X402_FACILITATOR_URL: remote } = config;
  const { X402_RPC_URL: rpcUrl, X402_FACILITATOR_KEY: key } = config;
  if (!payTo) return settings;
  settings.payTo = getAddress(payTo);
  settings.facilitator = remote
    ? { kind: "remote", url: remote }
    : { kind: "in-process", rpcUrl: rpcUrl ?? "", privateKey: key as Hex };
  settings.rpcUrl = rpcUrl ?? PUBLIC_RPC[network];
  return settings;
}
