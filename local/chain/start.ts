/**
 * A local EVM chain for trying and testing the paid path offline: anvil (from the npm package
 * @foundry-rs/anvil) on 127.0.0.1, with a USDC-like EIP-3009 token (local/chain/contracts/
 * TestUSDC.sol, compiled here with the npm `solc` package) deployed, a payer funded with it,
 * and, each at its canonical address, as on Base:
 *   - Multicall3 (the x402 facilitator uses it to explain a refused payment);
 *   - Permit2, Uniswap's own build of it (compile.ts), for the exact scheme's second transfer
 *     method;
 *   - the x402 exact Permit2 proxy (contracts/X402ExactPermit2Proxy.sol), the spender a
 *     Permit2 payment names.
 * Used by `npm run dev -- --chain` and the test suite's global setup.
 *
 * Accounts come from anvil's well-known test mnemonic, so they are funded with ETH for gas:
 *   0: deployer and minter of the token
 *   1: the in-process facilitator (sends transferWithAuthorization, pays the gas)
 *   2: payTo, the service's receiving address
 *   3: a test payer, funded with 1,000 test USDC, which has approved Permit2 for it
 * These keys are public knowledge: never use them on a real network.
 */
import { PERMIT2_ADDRESS, x402ExactPermit2ProxyAddress } from "@x402/evm";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  toHex,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { startAnvil } from "./anvil";
import { compileContracts, permit2CreationCode } from "./compile";
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
  const proxy = contracts.X402ExactPermit2Proxy;
  if (!token || !multicall || !proxy) {
    throw new Error("compiled contracts are missing TestUSDC, Multicall3 or X402ExactPermit2Proxy");
  }

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

    const test = createTestClient({ chain, mode: "anvil", transport });
    await test.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall.deployedBytecode });
    await placePermit2(publicClient, test);
    await placeAt(publicClient, test, x402ExactPermit2ProxyAddress, () =>
      deployer.deployContract({
        abi: proxy.abi,
        bytecode: proxy.bytecode,
        args: [PERMIT2_ADDRESS],
      }),
    );

    const payer = addressOf(3);
    const mintHash = await deployer.writeContract({
      address: asset,
      abi: token.abi,
      functionName: "mint",
      args: [payer, PAYER_FUNDS],
    });
    await publicClient.waitForTransactionReceipt({ hash: mintHash });
    // The test payer can pay by Permit2 too: it approves Permit2 once, as a wallet would.
    const approveHash = await createWalletClient({
      account: mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 3 }),
      chain,
      transport,
    }).writeContract({
      address: asset,
      abi: erc20Abi,
      functionName: "approve",
      args: [PERMIT2_ADDRESS, maxUint256],
    });
    await publicClient.waitForTransactionReceipt({ hash: approveHash });

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

type Clients = {
  publicClient: ReturnType<typeof createPublicClient>;
  test: ReturnType<typeof createTestClient>;
};

/** Deploys a contract anywhere, then places its code at `address`. */
async function placeAt(
  publicClient: Clients["publicClient"],
  test: Clients["test"],
  address: Address,
  deploy: () => Promise<Hex>,
) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await deploy() });
  if (!receipt.contractAddress) throw new Error(`deploying the code for ${address} failed`);
  const code = await publicClient.getCode({ address: receipt.contractAddress });
  if (!code) throw new Error(`no code at ${receipt.contractAddress}`);
  await test.setCode({ address, bytecode: code });
}

/**
 * Permit2 at its canonical address. Its constructor caches its EIP-712 domain separator for
 * the chain and address it is deployed on, and uses the cache only while `block.chainid` is
 * that chain's. It is deployed while the chain says it is another one, so that at the
 * canonical address, on this chain, it computes the separator afresh, with the canonical
 * address: the domain payers sign under. (Its code is otherwise unchanged.)
 */
async function placePermit2(publicClient: Clients["publicClient"], test: Clients["test"]) {
  const setChainId = (id: number) =>
    publicClient.request({ method: "anvil_setChainId" as "eth_chainId", params: [id] as never });
  // Sent by an impersonated account: anvil takes it unsigned, whatever the chain id says.
  const from = PERMIT2_DEPLOYER;
  await test.setBalance({ address: from, value: 10n ** 18n });
  await test.impersonateAccount({ address: from });
  await setChainId(1);
  try {
    await placeAt(publicClient, test, PERMIT2_ADDRESS, () =>
      publicClient.request({
        method: "eth_sendTransaction",
        params: [{ from, data: permit2CreationCode(), gas: "0x1000000" }],
      }),
    );
  } finally {
    await setChainId(LOCAL_CHAIN_ID);
    await test.stopImpersonatingAccount({ address: from });
  }
}

/** Any address: it only sends Permit2's deployment. */
const PERMIT2_DEPLOYER: Address = "0x000000000000000000000000000000000000dEaD";

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
  log(`  funded test payer ${chain.payer}: 1000 test USDC, Permit2 approved`);
  log(`  Permit2 ${PERMIT2_ADDRESS}, x402 exact Permit2 proxy ${x402ExactPermit2ProxyAddress}`);
  log(`  its private key (a public anvil test key, never use it elsewhere): ${chain.payerKey}`);
  return { vars: localChainVars(chain), stop: chain.stop };
}
