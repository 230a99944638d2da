/**
 * A payment pays for one thing: the call it was made for (its resource URL, hence its method:
 * a paid URL is paid on one method only), by the wallet that signed it, at its requirement's
 * amount, network, asset and payTo. Any other use is a 402 that says why, and nothing runs or
 * moves. A call that fails after its payment settled is credited to the payer.
 */
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { MISSING_ID, uniqueText } from "../helpers";
import {
  balances,
  expectTransferred,
  expectUnchanged,
  fundedPayer,
  json,
  newPayer,
  post,
  postPaid,
  storePayment,
} from "./chain";

async function reasonOf(res: Response): Promise<string> {
  expect(res.status).toBe(402);
  expect(res.headers.get("payment-required")).toBeTruthy();
  return (await json(res)).error.details.reason;
}

describe("a payment is bound to its call", () => {
  it("refuses a store's payment on recall, then still pays the store it was made for", async () => {
    const p = await fundedPayer();
    const payment = encodePaymentSignatureHeader(await storePayment(p));
    const before = await balances(p.address);
    const onRecall = await p.fetch("/v1/recall", postPaid({ query: "anything" }, payment));
    expect(await reasonOf(onRecall)).toBe("the payment is for /v1/store, not for POST /v1/recall");
    expectUnchanged(before, await balances(p.address));
    // Not spent: the store it was made for still takes it.
    const stored = await p.fetch("/v1/store", postPaid({ content: uniqueText("bound") }, payment));
    expect(stored.status).toBe(201);
    expectTransferred(before, await balances(p.address), 5000n);
  });

  it("refuses a payment whose resource names another path, or none", async () => {
    const p = await fundedPayer();
    const payload = await storePayment(p);
    const before = await balances(p.address);
    const store = (sent: object) =>
      p.fetch(
        "/v1/store",
        postPaid(
          { content: uniqueText("x") },
          encodePaymentSignatureHeader(sent as typeof payload),
        ),
      );
    const elsewhere = { ...payload.resource, url: "http://memory.test/v1/recall" };
    expect(await reasonOf(await store({ ...payload, resource: elsewhere }))).toBe(
      "the payment is for /v1/recall, not for POST /v1/store",
    );
    const { resource: _resource, ...nameless } = payload;
    expect(await reasonOf(await store(nameless))).toBe(
      "the payment names no resource: it must be for POST /v1/store",
    );
    expectUnchanged(before, await balances(p.address));
    expect((await json(await p.fetch("/v1/memories/count"))).count).toBe(0);
  });

  it("refuses another wallet's payment for this wallet's call: its payer must be the caller", async () => {
    const payer = await fundedPayer();
    const caller = await fundedPayer();
    const payment = encodePaymentSignatureHeader(await storePayment(payer, caller));
    const before = await balances(payer.address);
    const res = await caller.fetch(
      "/v1/store",
      postPaid({ content: uniqueText("not mine") }, payment),
    );
    expect(await reasonOf(res)).toBe(
      `the payment is signed by ${payer.wallet}, but the request is authenticated as ${caller.wallet}`,
    );
    expectUnchanged(before, await balances(payer.address));
    expect((await json(await caller.fetch("/v1/memories/count"))).count).toBe(0);
  });
});

describe("a paid call that fails after settling is credited", () => {
  it("credits a paid PATCH of a missing memory; the credit pays the next call", async () => {
    const p = await fundedPayer();
    const before = await balances(p.address);
    const missing = await p.pay(`/v1/memories/${MISSING_ID}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ importance: 0.9 }),
    });
    expect(missing.status).toBe(404);
    expect(decodePaymentResponseHeader(missing.headers.get("payment-response") ?? "").success).toBe(
      true,
    );
    expect(missing.headers.get("x-payment-credited")).toBe("5000");
    expectTransferred(before, await balances(p.address), 5000n);
    expect(await json(await p.fetch("/v1/free-tier/status"))).toMatchObject({
      free_tier_remaining: 0,
      credit: { amount: "5000", usd: "0.005" },
    });

    // The next paid call is served from the credit: no 402, no payment, nothing moves.
    const sent = p.sentPayments.length;
    const stored = await p.pay("/v1/store", post({ content: uniqueText("from credit") }));
    expect(stored.status).toBe(201);
    expect(p.sentPayments.length).toBe(sent);
    expectTransferred(before, await balances(p.address), 5000n);
    const status = await json(await p.fetch("/v1/free-tier/status"));
    expect(status.credit).toBeUndefined();
    // And the one after is paid again.
    expect((await p.pay("/v1/store", post({ content: uniqueText("paid") }))).status).toBe(201);
    expect(p.sentPayments.length).toBe(sent + 1);
  });

  it("gives a credited call back to the credit when it fails too (404, no payment)", async () => {
    const p = await fundedPayer();
    const patch = (id: string) =>
      p.pay(`/v1/memories/${id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ importance: 0.2 }),
      });
    expect((await patch(MISSING_ID)).status).toBe(404);
    const paid = p.sentPayments.length;
    expect((await patch(MISSING_ID)).status).toBe(404);
    expect(p.sentPayments.length).toBe(paid);
    expect((await json(await p.fetch("/v1/free-tier/status"))).credit).toEqual({
      amount: "5000",
      usd: "0.005",
    });
  });

  it("never credits a wallet that did not pay", async () => {
    const p = newPayer();
    expect((await json(await p.fetch("/v1/free-tier/status"))).credit).toBeUndefined();
  });
});
