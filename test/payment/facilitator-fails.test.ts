/**
 * When the facilitator fails, nothing is served and nothing is charged for it: a paid call is a
 * 502 BAD_GATEWAY (never a 500) and its handler does not run. A settlement that broke off
 * mid-way may have moved the money, so its authorization stays taken (it cannot pay twice).
 */

import { env } from "cloudflare:workers";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { expectError, uniqueText } from "../helpers";
import { workerWith } from "../worker-with";
import {
  balances,
  chainEnv,
  expectTransferred,
  fundedPayer,
  json,
  postPaid,
  storePayment,
} from "./chain";

/** The chain's settings, with a remote facilitator that behaves as `mode` says (RPC to read). */
const failingWorker = (mode: "down" | "settle-fails") => {
  const { X402_FACILITATOR_KEY: _key, ...rest } = chainEnv;
  return workerWith({ ...rest, X402_FACILITATOR_URL: `${env.FAKE_FACILITATOR_URL}/${mode}` });
};

/** A store paid with `payment` alone (the payer is the caller), through `worker`. */
async function sendTo(worker: ReturnType<typeof workerWith>, payment: string) {
  const res = await worker(
    "http://memory.test/v1/store",
    postPaid({ content: uniqueText("via a failing facilitator") }, payment),
  );
  return { res, body: await json(res) };
}

describe("a failing facilitator", () => {
  it("unreachable: 502, nothing stored, and the payment still pays later", async () => {
    const p = await fundedPayer();
    const payment = encodePaymentSignatureHeader(await storePayment(p));
    const before = await balances(p.address);
    const { res, body } = await sendTo(failingWorker("down"), payment);
    expectError({ status: res.status, body, headers: res.headers }, 502, "BAD_GATEWAY");
    expect(body.error.message).toMatch(/facilitator unavailable/);
    expect((await json(await p.fetch("/v1/memories/count"))).count).toBe(0);
    // Nothing moved or was taken: the same payment pays through a working facilitator.
    const paid = await p.fetch("/v1/store", postPaid({ content: uniqueText("later") }, payment));
    expect(paid.status).toBe(201);
    expectTransferred(before, await balances(p.address), 5000n);
  });

  it("settlement broken off: the chain shows nothing moved by the bound, so 502 before the handler, and the authorization is not taken again", async () => {
    const p = await fundedPayer();
    const payment = encodePaymentSignatureHeader(await storePayment(p));
    const { res, body } = await sendTo(failingWorker("settle-fails"), payment);
    expectError({ status: res.status, body, headers: res.headers }, 502, "BAD_GATEWAY");
    expect(body.error.message).toMatch(/not confirmed in time/);
    expect(body.error.details.payment).toBe("unknown");
    expect((await json(await p.fetch("/v1/memories/count"))).count).toBe(0);
    // It may have settled: the service keeps its nonce, so it cannot pay for a second call.
    const again = await p.fetch("/v1/store", postPaid({ content: uniqueText("again") }, payment));
    expect(again.status).toBe(402);
    expect((await json(again)).error.details.reason).toBe(
      "payment already in use by another request",
    );
  }, 40_000);
});
