/**
 * The local chain as its users see it: the constants of anvil's test accounts and token, the
 * details a started chain hands on (to the Worker, to the tests' workerd as JSON), the Worker
 * variables that point the service at it, and viem's description of it.
 *
 * Plain viem and no Node built-ins, so that the tests running inside workerd
 * (test/payment/chain.ts) share it with the Node side that starts the chain (start.ts).
 * Imports nothing of this repository.
 */
import { type Address, defineChain, type Hex } from "viem";

/** anvil's default mnemonic, passed explicitly so the accounts below are certain. */
export const TEST_MNEMONIC = "test test test test test test test test test test test junk";
export const LOCAL_CHAIN_ID = 31337;
/** The canonical Multicall3 address on Base and most chains. */
export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";
/** EIP-712 domain of the test token: the same as USDC's on Base. */
export const TOKEN_NAME = "USD Coin";
export const TOKEN_VERSION = "2";
/** What the test payer is funded with: 1,000 USDC in atomic units (6 decimals). */
export const PAYER_FUNDS = 1_000_000_000n;

/** What a started chain hands on; JSON-safe (the tests' global setup passes it to workerd). */
export interface ChainDetails {
  rpcUrl: string;
  chainId: number;
  /** CAIP-2 network id of the chain, the form x402 uses: `eip155:31337`. */
  network: `eip155:${number}`;
  /** The deployed EIP-3009 token. */
  asset: Address;
  assetName: string;
  assetVersion: string;
  /** The service's receiving address (X402_PAY_TO). */
  payTo: Address;
  /** Key of the in-process facilitator (X402_FACILITATOR_KEY); funded with ETH for gas. */
  facilitatorKey: Hex;
  /** Key of the token's owner, who alone can mint (tests fund fresh wallets with it). */
  minterKey: Hex;
  /** A payer funded with PAYER_FUNDS of the token. */
  payerKey: Hex;
  payer: Address;
}

/** The Worker variables that point the service at a local chain (in-process facilitator). */
export function localChainVars(chain: ChainDetails): Record<string, string> {
  return {
    X402_NETWORK: chain.network,
    X402_ASSET: chain.asset,
    X402_ASSET_NAME: chain.assetName,
    X402_ASSET_VERSION: chain.assetVersion,
    X402_PAY_TO: chain.payTo,
    X402_RPC_URL: chain.rpcUrl,
    X402_FACILITATOR_KEY: chain.facilitatorKey,
  };
}

/** viem's description of a local chain at `rpcUrl`. */
export function localViemChain(rpcUrl: string, id: number = LOCAL_CHAIN_ID) {
  return defineChain({
    id,
    name: "Local (anvil)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
