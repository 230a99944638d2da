/**
 * What the tests and the bench do with the local chain's token (details.ts): read a balance,
 * mint to a wallet (the minter is the token's owner), give Permit2 the one approval a wallet
 * gives before it pays by Permit2, and count the facilitator's reverted settlements. Plain viem, no Node built-ins: the tests inside workerd
 * (test/payment/chain.ts) and the bench in Node (bench/paid.ts) share it.
 */
import { PERMIT2_ADDRESS } from "@x402/evm";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  maxUint256,
  parseAbi,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { type ChainDetails, localViemChain } from "./details";

/** How often a mint refused for its nonce is sent again (two minters at once share one nonce). */
const MINT_ATTEMPTS = 5;

/** The chain's token as one caller uses it. */
export function localToken(chain: ChainDetails) {
  const viemChain = localViemChain(chain.rpcUrl, chain.chainId);
  const transport = http(chain.rpcUrl);
  const reader = createPublicClient({ chain: viemChain, transport });
  const minter = createWalletClient({
    account: privateKeyToAccount(chain.minterKey),
    chain: viemChain,
    transport,
  });
  const settled = (hash: `0x${string}`) =>
    reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });

  return {
    reader,
    balanceOf: (address: Address) =>
      reader.readContract({
        address: chain.asset,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address],
      }),

    /**
     * Mints `amount` to `to`. Callers that mint at once (test files run two at a time) can be
     * given the same account nonce: the loser is sent again.
     */
    async mint(to: Address, amount: bigint) {
      for (let attempt = 1; ; attempt++) {
        try {
          await settled(
            await minter.writeContract({
              address: chain.asset,
              abi: parseAbi(["function mint(address to, uint256 value)"]),
              functionName: "mint",
              args: [to, amount],
            }),
          );
          return;
        } catch (err) {
          const clash = /nonce too low|nonce has already been used|underpriced/i.test(String(err));
          if (!clash || attempt === MINT_ATTEMPTS) throw err;
        }
      }
    },

    /**
     * The facilitator's transactions that reverted since `fromBlock` (gas it spent on
     * settlements the chain refused), only those whose calldata names one of `concerning`
     * when given (other runs may pay at the same time).
     */
    async revertedSince(fromBlock: bigint, concerning?: Address[]): Promise<number> {
      const facilitator = privateKeyToAccount(chain.facilitatorKey).address.toLowerCase();
      const needles = concerning?.map((a) => a.slice(2).toLowerCase());
      const last = await reader.getBlockNumber();
      let reverted = 0;
      for (let n = fromBlock; n <= last; n++) {
        const block = await reader.getBlock({ blockNumber: n, includeTransactions: true });
        for (const tx of block.transactions) {
          if (tx.from.toLowerCase() !== facilitator) continue;
          const input = tx.input.toLowerCase();
          if (needles && !needles.some((needle) => input.includes(needle))) continue;
          const receipt = await reader.getTransactionReceipt({ hash: tx.hash });
          if (receipt.status === "reverted") reverted++;
        }
      }
      return reverted;
    },

    /** ETH for gas, then the one approval of Permit2 a wallet gives before paying by it. */
    async approvePermit2(account: PrivateKeyAccount) {
      await reader.request({
        method: "anvil_setBalance" as "eth_chainId",
        params: [account.address, "0xde0b6b3a7640000"] as never,
      });
      const owner = createWalletClient({ account, chain: viemChain, transport });
      await settled(
        await owner.writeContract({
          address: chain.asset,
          abi: erc20Abi,
          functionName: "approve",
          args: [PERMIT2_ADDRESS, maxUint256],
        }),
      );
    },
  };
}
