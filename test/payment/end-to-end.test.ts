/**
 * x402 v2 payments end to end, inside workerd, against the local anvil chain: the free
 * allowance, then the 402 and a paid call settled on chain, and the price of each class.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import type { Hex } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { allowanceUsedError } from "../fixtures";
import { uniqueText } from "../helpers";
import {
  BASE,
  balances,
  chain,
  exhaustAllowance,
  expectedAccepts,
  expectTransferred,
  expectUnchanged,
  freezeClockAt,
  json,
  mint,
  newPayer,
  post,
  publicClient,
} from "./chain";

afterEach(() => {
  vi.useRealTimers();
});

describe("x402 end to end: free allowance, then pay", () => {
  it("serves 100 free calls, answers 402 with the exact header, settles a paid call", async () => {
    const p = newPayer();
    await mint(p.address, 1_000_000n);
    const minute = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    freezeClockAt(minute + 10_000);
    const before = await balances(p.address);
    expect(before.payer).toBe(1_000_000n);

    // 100 cheap paid calls through the x402 client, 10 at a time, within one rate window:
    // all free, none paid (the client never saw a 402).
    let next = 0;
    const statuses: number[] = [];
    const lane = async () => {
      while (next < 100) {
        next++;
        const res = await p.pay("/v1/recall", post({ query: "anything at all" }));
        statuses.push(res.status);
        expect(res.headers.get("payment-response")).toBeNull();
        await res.text();
      }
    };
    await Promise.all(Array.from({ length: 10 }, lane));
    expect(statuses).toEqual(Array(100).fill(200));
    expect(p.sentPayments).toEqual([]);
    expectUnchanged(before, await balances(p.address));

    // A new rate window; the allowance stays used.
    freezeClockAt(minute + 70_000);
    const status = await json(await p.fetch("/v1/free-tier/status"));
    expect(status).toMatchObject({ free_tier_used: 100, free_tier_remaining: 0 });

    // Without payment: 402, our error body, and PAYMENT-REQUIRED exactly as clients expect.
    const unpaid = await p.fetch("/v1/store", post({ content: uniqueText("unpaid") }));
    expect(unpaid.status).toBe(402);
    expect(await json(unpaid)).toEqual(allowanceUsedError(chain));
    const header = unpaid.headers.get("payment-required");
    expect(header).toBeTruthy();
    const required = JSON.parse(atob(header ?? "")) as PaymentRequired;
    expect(required).toEqual({
      x402Version: 2,
      resource: {
        url: `${BASE}/v1/store`,
        description: "POST /v1/store: 0.005 USDC per call",
        mimeType: "application/json",
      },
      accepts: expectedAccepts("5000"),
      extensions: expect.any(Object), // bazaar, payment-identifier, sign-in-with-x: test/x402/
    });
    expect(unpaid.headers.get("x-ratelimit-limit")).toBe("100");

    // The client pays: 201, PAYMENT-RESPONSE, and exactly the price moved on chain.
    const content = uniqueText("paid for");
    const paid = await p.pay("/v1/store", post({ content }));
    expect(paid.status).toBe(201);
    const stored = await json(paid);
    expect(p.sentPayments).toHaveLength(1);
    const receipt = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "");
    expect(receipt).toMatchObject({ success: true, network: chain.network });
    expect(receipt.payer?.toLowerCase()).toBe(p.wallet);
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const tx = await publicClient.getTransactionReceipt({ hash: receipt.transaction as Hex });
    expect(tx.status).toBe("success");
    expectTransferred(before, await balances(p.address), 5000n);

    // The memory is the payer's; the allowance was not touched by the paid call.
    const got = await json(await p.fetch(`/v1/memories/${stored.id}`));
    expect(got.content).toBe(content);
    expect(await json(await p.fetch("/v1/free-tier/status"))).toMatchObject({
      free_tier_used: 100,
    });
  }, 120_000);

  it("prices each class: batch store 40000, the 0.01 class 10000", async () => {
    const p = newPayer();
    await exhaustAllowance(p.wallet);
    const cases: Array<[string, unknown, string]> = [
      ["/v1/store/batch", { memories: [{ content: uniqueText("b") }] }, "40000"],
      ["/v1/memories/extract", { text: "x" }, "10000"],
      ["/v1/recall", { query: "x" }, "5000"],
    ];
    for (const [path, body, amount] of cases) {
      const res = await p.fetch(path, post(body));
      expect(res.status, path).toBe(402);
      const required = decodePaymentRequiredHeader(res.headers.get("payment-required") ?? "");
      expect(required.accepts, path).toEqual(expectedAccepts(amount));
      expect(required.resource.url).toBe(`${BASE}${path}`);
    }
  });
});
