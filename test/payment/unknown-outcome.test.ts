/**
 * A settlement whose outcome is unknown is never taken for a refusal (issue #44): the service
 * asks the chain. Paid, the call is served; still unknown at the bound, a 502 that keeps the
 * payment, and the payer's Meter credits it once the transfer confirms (its alarm), or lets
 * it go once its authorization expired unused. A retry with the payment identifier learns the
 * outcome. The facilitators here are the fake remote ones of the global setup
 * (test/fake-facilitator.ts), which misbehave after or without moving the money.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SETTLEMENT_BOUND_MS } from "../../worker/middleware/payment";
import { uniqueText } from "../helpers";
import {
  balances,
  meterOf,
  newPayer,
  type Payer,
  storeWithPayment,
  transfersFrom,
  workerWith,
} from "../x402/chain";
import { chainEnv, freezeClockAt } from "./chain";

type Mode = "pending-after-settling" | "hang-after-sending" | "pending-unsent" | "refuses";

/** The chain's settings with a remote facilitator that behaves as `mode` says (RPC kept to read). */
const remoteWorker = (mode: Mode) => {
  const { X402_FACILITATOR_KEY: _key, ...rest } = chainEnv;
  return workerWith({ ...rest, X402_FACILITATOR_URL: `${env.FAKE_FACILITATOR_URL}/${mode}` });
};

/**
 * A payer through a facilitator that behaves as `mode`, a store call of a unique `content`, and
 * the payer's signed payment for it (with a payment identifier when given).
 */
async function paidStore(mode: Mode, content: string, id?: string) {
  const p = await newPayer(remoteWorker(mode));
  const body = { content: uniqueText(content) };
  return { p, body, ...(await storeWithPayment(p, body, id)) };
}

/** Moves the money of `payload` on chain, as a facilitator would (the fake's own sender). */
async function settleOnChain(payload: unknown) {
  const res = await fetch(`${env.FAKE_FACILITATOR_URL}/pending-after-settling/settle`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ paymentPayload: payload }),
  });
  const answer = (await res.json()) as { transaction: string };
  expect(answer.transaction).toMatch(/^0x[0-9a-f]{64}$/);
}

/** The wallet's credit in atomic units (free-tier status shows it only when there is some). */
const creditOf = async (p: Payer) =>
  Number((await p.call("GET", "/v1/free-tier/status")).body.credit?.amount ?? 0);

afterEach(() => {
  vi.useRealTimers();
});

describe("a settlement whose outcome is unknown", () => {
  it("a facilitator's refusal that names no transaction is a 402 at once, not an unknown outcome", async () => {
    const { p, body, headers } = await paidStore("refuses", "refused by the facilitator");
    const started = Date.now();
    const res = await p.call("POST", "/v1/store", body, headers);
    expect(res.status).toBe(402);
    expect(res.body.error.details.reason).toMatch(
      /settlement failed: invalid_exact_evm_insufficient_balance/,
    );
    // No chain polling until the bound: a refusal is known when it is answered.
    expect(Date.now() - started).toBeLessThan(SETTLEMENT_BOUND_MS);
    expect((await p.call("GET", "/v1/memories/count")).body.count).toBe(0);
  });

  it("settled, then reported pending: the chain shows it paid, so the call is served", async () => {
    const { p, body, headers } = await paidStore("pending-after-settling", "pending but paid");
    const before = await balances(p.address);
    const res = await p.call("POST", "/v1/store", body, headers);
    expect(res.status).toBe(201);
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response") ?? "");
    expect(receipt.success).toBe(true);
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await balances(p.address)).payer).toBe(before.payer - 5000n);
    expect((await p.call("GET", "/v1/memories/count")).body.count).toBe(1);
    expect(await creditOf(p)).toBe(0);
  });

  it("sent, then the facilitator hangs: the call is served within the bound", async () => {
    const { p, body, headers } = await paidStore("hang-after-sending", "hung but paid");
    const started = Date.now();
    const res = await p.call("POST", "/v1/store", body, headers);
    // The fake holds its answer for 60 s: only the service's own bound can end the wait.
    expect(Date.now() - started).toBeLessThan(SETTLEMENT_BOUND_MS + 10_000);
    expect(res.status).toBe(201);
    expect(await transfersFrom(p.address)).toBe(1);
    expect((await p.call("GET", "/v1/memories/count")).body.count).toBe(1);
  }, 60_000);

  it("still unknown at the bound: 502 keeping the payment; once it confirms, credited, and a retry is served", async () => {
    const id = generatePaymentId();
    const { p, body, payload, headers } = await paidStore(
      "pending-unsent",
      "unknown, then confirmed",
      id,
    );
    const res = await p.call("POST", "/v1/store", body, headers);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("BAD_GATEWAY");
    expect(res.body.error.details).toMatchObject({
      payment: "unknown",
      reason: "settlement_pending",
      credit_on_confirmation: "5000",
    });
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("x-payment-unsettled")).toBeTruthy();
    expect((await p.call("GET", "/v1/memories/count")).body.count).toBe(0);
    // Its payment cannot pay for another call meanwhile.
    const other = { content: uniqueText("another call") };
    expect((await p.call("POST", "/v1/store", other, headers)).status).toBe(409);

    // Unknown still: the retry gets the same 502, and nothing is credited.
    expect((await p.call("POST", "/v1/store", body, headers)).status).toBe(502);
    await runDurableObjectAlarm(meterOf(p.address.toLowerCase()));
    expect(await creditOf(p)).toBe(0);

    // The transfer confirms; the Meter's background check credits it.
    await settleOnChain(payload);
    await runDurableObjectAlarm(meterOf(p.address.toLowerCase()));
    expect(await creditOf(p)).toBe(5000);

    // The retry with the payment identifier is served by that credit, once.
    const retry = await p.call("POST", "/v1/store", body, headers);
    expect(retry.status).toBe(201);
    expect(await creditOf(p)).toBe(0);
    const again = await p.call("POST", "/v1/store", body, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(retry.body);
    expect((await p.call("GET", "/v1/memories/count")).body.count).toBe(1);
    expect(await transfersFrom(p.address)).toBe(1);
  }, 60_000);

  it("confirmed before any background check: the retry with the payment identifier asks the chain itself and is served", async () => {
    const id = generatePaymentId();
    const { p, body, payload, headers } = await paidStore("pending-unsent", "retry finds it", id);
    expect((await p.call("POST", "/v1/store", body, headers)).status).toBe(502);
    await settleOnChain(payload);
    // No alarm has run: the retry's own look at the chain credits the payment and spends it.
    const retry = await p.call("POST", "/v1/store", body, headers);
    expect(retry.status).toBe(201);
    expect(await creditOf(p)).toBe(0);
    expect((await p.call("GET", "/v1/memories/count")).body.count).toBe(1);
    // The alarm that comes later finds nothing left to credit.
    await runDurableObjectAlarm(meterOf(p.address.toLowerCase()));
    expect(await creditOf(p)).toBe(0);
  }, 60_000);

  it("never confirmed: once its authorization expired unused, nothing was taken and the retry is a 402", async () => {
    const id = generatePaymentId();
    const { p, body, headers } = await paidStore("pending-unsent", "unknown, never paid", id);
    const before = await balances(p.address);
    expect((await p.call("POST", "/v1/store", body, headers)).status).toBe(502);

    // Past its validBefore (300 s) and the Meter's margin, the authorization can never pay.
    freezeClockAt(Date.now() + 10 * 60 * 1000);
    await runDurableObjectAlarm(meterOf(p.address.toLowerCase()));
    expect(await creditOf(p)).toBe(0);
    const fresh = await storeWithPayment(p, body, id);
    const retry = await p.call("POST", "/v1/store", body, fresh.headers);
    expect(retry.status).toBe(402);
    expect(retry.body.error.details.reason).toMatch(/expired unsettled/);
    expect((await balances(p.address)).payer).toBe(before.payer);
    expect((await p.call("GET", "/v1/memories/count")).body.count).toBe(0);
  }, 60_000);
});
