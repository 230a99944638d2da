/**
 * The local chain's contracts: those of contracts/ (a USDC-like EIP-3009 token, Multicall3 and
 * the x402 exact Permit2 proxy), compiled with the npm `solc` package, and Uniswap's Permit2
 * as Uniswap built it (`permit2CreationCode`). Imports nothing of this repository.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import solc from "solc";
import type { Abi, Hex } from "viem";

const CONTRACTS_DIR = new URL("./contracts/", import.meta.url);
const CACHE_DIR = new URL("../../node_modules/.cache/local-chain/", import.meta.url);

export interface Compiled {
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
  const files = ["TestUSDC.sol", "Multicall3.sol", "X402ExactPermit2Proxy.sol"];
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

/**
 * Permit2's creation code, as Uniswap compiled it from its source: the `_bytecode` of the
 * Permit2 factory that @uniswap/universal-router (a dev dependency) ships with its typechain
 * bindings. Read as text: the file itself imports ethers, which this repository does not use.
 */
export function permit2CreationCode(): Hex {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@uniswap/universal-router/package.json");
  const file = pkg.replace(/package\.json$/, "typechain/factories/Permit2__factory.ts");
  const match = readFileSync(file, "utf8").match(/_bytecode\s*=\s*"(0x[0-9a-fA-F]+)"/);
  if (!match?.[1]) throw new Error(`Permit2's creation code not found in ${file}`);
  return match[1] as Hex;
}
