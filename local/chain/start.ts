/**
 * A local EVM chain for trying and testing the paid path offline: anvil (from the npm package
 * @foundry-rs/anvil) on 127.0.0.1, with a USDC-like EIP-3009 token (local/chain/contracts/
 * TestUSDC.sol, compiled here with the npm `solc` package) deployed, a payer funded with it,
 * and Multicall3 placed at its canonical address (the x402 facilitator uses it to explain a
 * refused payment). Used by `npm run dev -- --chain` and the test suite's global setup.
 *
 * Accounts come from anvil's well-known test mnemonic, so they are funded with ETH for gas:
 *   0: deployer and minter of the token
 *   1: the in-process facilitator (sends transferWithAuthorization, pays the gas)
 *   2: payTo, the service's receiving address
 *   3: a test payer, funded with 1,000 test USDC
 * These keys are public knowledge: never use them on a real network.
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  toHex,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { startAnvil } from "./anvil";
import { compileContracts } from "./compile";
import {
  type ChainDetails,
  LOCAL_CHAIN_ID,
  localChainVars,
  localViemChain,
  MULTICALL3_ADDRESS,
  PAYER_FUNDS,
  TEST_MNEMONIC,
  TOKEN_NAME,
  TOKEN_VERSION,
} from "./details";

export interface LocalChain extends ChainDetails {
  stop(): Promise<void>;
}

export interface LocalChainOptions {
  /** Port for anvil; 0 (default) picks a free one. */
  port?: number;
  log?: (line: string) => void;
}

const keyOf = (index: number): Hex => {
  const key = mnemonicToAccount(TEST_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for test account ${index}`);
  return toHex(key);
};

const addressOf = (index: number): Address =>
  mnemonicToAccount(TEST_MNEMONIC, { addressIndex: index }).address;

export async function startLocalChain(opts: LocalChainOptions = {}): Promise<LocalChain> {
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const contracts = compileContracts();
  const token = contracts.TestUSDC;
  const multicall = contracts.Multicall3;
  if (!token || !multicall)
    throw new Error("compiled contracts are missing TestUSDC or Multicall3");

  const { child, rpcUrl } = await startAnvil(opts.port ?? 0);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.removeAllListeners("exit");
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });

  try {
    const chain = localViemChain(rpcUrl);
    const transport = http(rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 100 });
    const deployer = createWalletClient({
      account: mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 0 }),
      chain,
      transport,
      pollingInterval: 100,
    });

    const deployHash = await deployer.deployContract({
      abi: token.abi,
      bytecode: token.bytecode,
      args: [TOKEN_NAME, TOKEN_VERSION],
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: deployHash });
    if (!receipt.contractAddress) throw new Error("token deployment returned no contract address");
    const asset = getAddress(receipt.contractAddress);

    await createTestClient({ chain, mode: "anvil", transport }).setCode({
      address: MULTICALL3_ADDRESS,
      bytecode: multicall.deployedBytecode,
    });

    const payer = addressOf(3);
    const mintHash = await deployer.writeContract({
      address: asset,
      abi: token.abi,
      functionName: "mint",
      args: [payer, PAYER_FUNDS],
    });
    await publicClient.waitForTransactionReceipt({ hash: mintHash });

    log(
      `anvil at ${rpcUrl} (chain ${LOCAL_CHAIN_ID}); test USDC at ${asset}; ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return {
      rpcUrl,
      chainId: LOCAL_CHAIN_ID,
      network: `eip155:${LOCAL_CHAIN_ID}`,
      asset,
      assetName: TOKEN_NAME,
      assetVersion: TOKEN_VERSION,
      payTo: addressOf(2),
      facilitatorKey: keyOf(1),
      minterKey: keyOf(0),
      payerKey: keyOf(3),
      payer,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * `npm run dev -- --chain`: the local chain on ANVIL_PORT (default 8545), the Worker
 * variables that point the service at it, and the funded test key printed for the user.
 */
export async function startDevChain(
  log: (line: string) => void,
): Promise<{ vars: Record<string, string>; stop(): Promise<void> }> {
  const chain = await startLocalChain({ port: Number(process.env.ANVIL_PORT ?? 8545), log });
  log(`paid calls settle on the local chain ${chain.network} (in-process facilitator)`);
  log(`  token ${chain.asset} ("${chain.assetName}" v${chain.assetVersion}, 6 decimals)`);
  log(`  payTo ${chain.payTo}`);
  log(`  funded test payer ${chain.payer}: 1000 test USDC`);
  log(`  its private key (a public anvil test key, never use it elsewhere): ${chain.payerKey}`);
  return { vars: localChainVars(chain), stop: chain.stop };
}
