/**
 * The exact scheme's second transfer method, Permit2 (spec, Authentication: "via EIP-3009 or
 * Permit2"), end to end on the local chain: Uniswap's Permit2 and the x402 exact Permit2 proxy
 * at their canonical addresses, the real x402 client choosing the Permit2 requirement, the
 * in-process facilitator settling through the proxy.
 */
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { x402ExactPermit2ProxyAddress } from "@x402/evm";
import { describe, expect, it } from "vitest";
import { uniqueText } from "../helpers";
import {
  balances,
  expectTransferred,
  expectUnchanged,
  fundedPayer,
  json,
  newPayer,
  post,
  postPaid,
  readyToPay,
  storePayment,
} from "./chain";

describe("Permit2 payments", () => {
  it("pays a store through Permit2: settled by the proxy, exactly the price moved", async () => {
    const p = await fundedPayer("permit2");
    const before = await balances(p.address);
    const content = uniqueText("paid by permit2");
    const res = await p.pay("/v1/store", post({ content }));
    expect(res.status).toBe(201);
    const sent = JSON.parse(atob(p.sentPayments[0] ?? ""));
    expect(sent.accepted.extra.assetTransferMethod).toBe("permit2");
    expect(sent.payload.permit2Authorization.spender).toBe(x402ExactPermit2ProxyAddress);
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response") ?? "");
    expect(receipt).toMatchObject({ success: true });
    expect(receipt.payer?.toLowerCase()).toBe(p.wallet);
    expectTransferred(before, await balances(p.address), 5000n);
    const { id } = await json(res);
    expect((await json(await p.fetch(`/v1/memories/${id}`))).content).toBe(content);
  });

  it("refuses a replayed Permit2 payment, and one racing it: one call, one transfer", async () => {
    const p = await fundedPayer("permit2");
    const header = encodePaymentSignatureHeader(await storePayment(p, p, "permit2"));
    const before = await balances(p.address);
    const send = () => p.fetch("/v1/store", postPaid({ content: uniqueText("race") }, header));
    const raced = await Promise.all([send(), send(), send()]);
    expect(raced.map((r) => r.status).sort()).toEqual([201, 402, 402]);
    const replay = await send();
    expect(replay.status).toBe(402);
    expect((await json(replay)).error.details.reason).toBe(
      "payment already used: its authorization nonce was settled",
    );
    expectTransferred(before, await balances(p.address), 5000n);
    expect((await json(await p.fetch("/v1/memories/count"))).count).toBe(1);
  });

  it("refuses a payer who never approved Permit2, with the reason, and serves nothing", async () => {
    const p = newPayer("permit2");
    await readyToPay(p);
    const before = await balances(p.address);
    const res = await p.pay("/v1/store", post({ content: uniqueText("no approval") }));
    expect(res.status).toBe(402);
    expect((await json(res)).error.details.reason).toMatch(/permit2|allowance/i);
    expectUnchanged(before, await balances(p.address));
    expect((await json(await p.fetch("/v1/memories/count"))).count).toBe(0);
  });
});
