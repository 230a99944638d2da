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
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import solc from "solc";
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  toHex,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";

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

const CONTRACTS_DIR = new URL("./contracts/", import.meta.url);
const CACHE_DIR = new URL("../../node_modules/.cache/local-chain/", import.meta.url);

export interface LocalChain {
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

interface Compiled {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<
    string,
    Record<
      string,
      { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >;
}

/**
 * Compiles the contracts with solc-js. The output is cached under node_modules/.cache by a
 * hash of the sources and the compiler version, since solc-js takes seconds to load.
 */
export function compileContracts(): Record<string, Compiled> {
  const files = ["TestUSDC.sol", "Multicall3.sol"];
  const sources = Object.fromEntries(
    files.map((f) => [f, { content: readFileSync(new URL(f, CONTRACTS_DIR), "utf8") }]),
  );
  const version: string = solc.version();
  const hash = createHash("sha256")
    .update(version)
    .update(JSON.stringify(sources))
    .digest("hex")
    .slice(0, 16);
  const cacheFile = new URL(`contracts-${hash}.json`, CACHE_DIR);
  if (existsSync(cacheFile)) {
    return JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, Compiled>;
  }
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      outputSelection: {
        "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  const result: Record<string, Compiled> = {};
  for (const [, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      result[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
    }
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(result));
  return result;
}

/** The anvil binary of this platform, from the @foundry-rs/anvil-<os>-<arch> package. */
function anvilBinary(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const require = createRequire(import.meta.url);
  try {
    const dir = require.resolve(`${pkg}/package.json`).replace(/package\.json$/, "");
    const bin = `${dir}bin/anvil${process.platform === "win32" ? ".exe" : ""}`;
    if (existsSync(bin)) return bin;
  } catch {
    // fall through to the error below
  }
  throw new Error(`anvil binary not found (${pkg}); run npm install`);
}

function startAnvil(port: number): Promise<{ child: ChildProcess; rpcUrl: string }> {
  const child = spawn(
    anvilBinary(),
    [
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--chain-id",
      String(LOCAL_CHAIN_ID),
      "--mnemonic",
      TEST_MNEMONIC,
      "--accounts",
      "4",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => fail(new Error("anvil did not start within 20 s")), 20_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      reject(new Error(`${err.message}\n${output.slice(-2000)}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = output.match(/Listening on ([\d.]+):(\d+)/);
      if (listening) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        // Keep draining anvil's output so it never blocks on a full pipe.
        child.stdout?.resume();
        resolve({ child, rpcUrl: `http://${listening[1]}:${listening[2]}` });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(`anvil exited with code ${code}`)));
  });
}

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
    const chain = defineChain({
      id: LOCAL_CHAIN_ID,
      name: "Local (anvil)",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
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

/** The Worker variables that point the service at a local chain (in-process facilitator). */
export function localChainVars(chain: LocalChain): Record<string, string> {
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
