/**
 * The adversarial mix of issue #44, on the local chain with the in-process facilitator: in
 * each round, 6 payments at once over one payer's balance (a balance for 1) and 4 from a
 * funded payer, all at the same time, by EIP-3009 and by Permit2 in turn. Before the fix,
 * after 4-5 rounds paid calls began to take 180 or 360 s (receipt waits that outlived the
 * request that started them) and one transfer that succeeded on chain was answered 402.
 *
 * For every payer: served + credited = paid (what left its balance), and every memory
 * served is written; every call answers within the settlement bound; refused settlements
 * cost (almost) no gas: reverted transactions are counted, at most one a round.
 */

import { describe, expect, it } from "vitest";
import { localToken } from "../../local/chain/token";
import { SETTLEMENT_BOUND_MS } from "../../worker/middleware/payment";
import { uniqueText } from "../helpers";
import {
  balances,
  chain,
  fundedPayer,
  json,
  type PayBy,
  type Payer,
  post,
  publicClient,
} from "./chain";

const ROUNDS = 20;
const PRICE = 5000n;
/** Answers may take the settlement bound plus the store itself, on a busy 2-core machine. */
const ANSWER_BOUND_MS = SETTLEMENT_BOUND_MS + 5_000;

interface Sent {
  status: number;
  ms: number;
  credited: bigint;
}

async function paidStores(p: Payer, n: number): Promise<Sent[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const started = Date.now();
      const res = await p.pay("/v1/store", post({ content: uniqueText(`mixed ${i}`) }));
      await res.arrayBuffer();
      const credited = BigInt(res.headers.get("x-payment-credited") ?? "0");
      return { status: res.status, ms: Date.now() - started, credited };
    }),
  );
}

describe("mixed load: payments over a balance beside a funded payer, 20 rounds", () => {
  it("served + credited = paid for each payer, every answer within the bound, refusals cost no gas", async () => {
    const startBlock = await publicClient.getBlockNumber();
    const everyone: Payer[] = [];
    const slow: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const by: PayBy = round % 2 === 0 ? "eip3009" : "permit2";
      const [over, funded] = await Promise.all([
        fundedPayer(by, undefined, PRICE),
        fundedPayer(by),
      ]);
      everyone.push(over, funded);
      const before = await Promise.all([balances(over.address), balances(funded.address)]);
      const [overSent, fundedSent] = await Promise.all([
        paidStores(over, 6),
        paidStores(funded, 4),
      ]);
      for (const [p, sent, was] of [
        [over, overSent, before[0]],
        [funded, fundedSent, before[1]],
      ] as const) {
        slow.push(...sent.filter((s) => s.ms > ANSWER_BOUND_MS).map((s) => s.ms));
        const paid = (was.payer - (await balances(p.address)).payer) / PRICE;
        const served = BigInt(sent.filter((s) => s.status === 201).length);
        const credited = sent.reduce((sum, s) => sum + s.credited, 0n) / PRICE;
        expect({ round, by, paid }).toEqual({ round, by, paid: served + credited });
        expect(sent.every((s) => [201, 402].includes(s.status))).toBe(true);
        const count = (await json(await p.fetch("/v1/memories/count"))).count;
        expect(BigInt(count)).toBe(served);
      }
      expect(overSent.filter((s) => s.status === 201)).toHaveLength(1);
      expect(fundedSent.map((s) => s.status)).toEqual([201, 201, 201, 201]);
    }
    expect(slow).toEqual([]);
    const reverted = await localToken(chain).revertedSince(
      startBlock,
      everyone.map((p) => p.address),
    );
    console.log(`[mixed-load] ${ROUNDS} rounds: ${reverted} reverted settlement(s)`);
    expect(reverted).toBeLessThanOrEqual(ROUNDS);
  }, 600_000);
});
