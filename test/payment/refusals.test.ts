/**
 * x402 refusals, where nothing moves on chain: a replayed or concurrently reused payment, a
 * handler that fails, a wrong amount, network or an unfunded payer.
 */
import { runInDurableObject } from "cloudflare:test";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { expectError, uniqueText } from "../helpers";
import {
  balances,
  expectedAccepts,
  expectTransferred,
  expectUnchanged,
  fundedPayer,
  json,
  meterOf,
  newPayer,
  post,
  postPaid,
  storePayment,
  storeRequirement,
  x402For,
} from "./chain";

describe("x402 refusals: nothing moves", () => {
  it("refuses a replayed PAYMENT-SIGNATURE before the handler runs", async () => {
    const p = await fundedPayer();
    const paid = await p.pay("/v1/store", post({ content: uniqueText("original") }));
    expect(paid.status).toBe(201);
    const [signature] = p.sentPayments;
    const afterFirst = await balances(p.address);

    const replay = await p.fetch(
      "/v1/store",
      postPaid({ content: uniqueText("replayed") }, signature ?? ""),
    );
    const error = expectError(
      { status: replay.status, body: await json(replay), headers: replay.headers },
      402,
      "PAYMENT_REQUIRED",
    );
    expect(error.details.reason).toBe("payment already used: its authorization nonce was settled");
    const header = decodePaymentRequiredHeader(replay.headers.get("payment-required") ?? "");
    expect(header.error).toBe(error.details.reason);
    expect(header.accepts).toEqual(expectedAccepts("5000"));
    expect(replay.headers.get("payment-response")).toBeNull();
    expectUnchanged(afterFirst, await balances(p.address));

    // Second line of defence: were the nonce forgotten by the payer's Meter, the facilitator's
    // verification still finds it used on chain, and the handler does not run either.
    await runInDurableObject(meterOf(p.wallet), (_instance, state) => {
      state.storage.sql.exec("DELETE FROM payment_nonce");
    });
    const again = await p.fetch(
      "/v1/store",
      postPaid({ content: uniqueText("replayed again") }, signature ?? ""),
    );
    expect(again.status).toBe(402);
    expect((await json(again)).error.details.reason).toBe("invalid_exact_evm_nonce_already_used");
    expectUnchanged(afterFirst, await balances(p.address));
    // Only the original was stored.
    expect((await json(await p.fetch("/v1/memories"))).total).toBe(1);
  });

  it("lets exactly one of two concurrent uses of one payment through", async () => {
    const p = await fundedPayer();
    const header = encodePaymentSignatureHeader(await storePayment(p));
    const before = await balances(p.address);
    const send = (content: string) => p.fetch("/v1/store", postPaid({ content }, header));
    const results = await Promise.all([send(uniqueText("one")), send(uniqueText("two"))]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 402]);
    const refused = results.find((r) => r.status === 402);
    expect((await json(refused ?? new Response("{}"))).error.details.reason).toMatch(
      /^payment already (in use by another request|used: its authorization nonce was settled)$/,
    );
    expectTransferred(before, await balances(p.address), 5000n);
    expect((await json(await p.fetch("/v1/memories"))).total).toBe(1);
  });

  it("answers invalid input with 422 before asking for a payment: nothing is paid", async () => {
    const p = await fundedPayer();
    const before = await balances(p.address);
    const failed = await p.pay("/v1/store", post({ content: "" }));
    expect(failed.status).toBe(422);
    expect((await json(failed)).error.code).toBe("VALIDATION_ERROR");
    expect(failed.headers.get("payment-response")).toBeNull();
    expect(p.sentPayments).toEqual([]);
    expectUnchanged(before, await balances(p.address));

    // A payment sent with invalid input is not spent either: it still pays for a good call.
    const payment = encodePaymentSignatureHeader(await storePayment(p));
    const invalid = await p.fetch("/v1/store", postPaid({ content: "" }, payment));
    expect(invalid.status).toBe(422);
    expectUnchanged(before, await balances(p.address));
    const good = await p.fetch("/v1/store", postPaid({ content: uniqueText("good") }, payment));
    expect(good.status, await good.clone().text()).toBe(201);
    expectTransferred(before, await balances(p.address), 5000n);
  });

  it("answers 402 with the reason for a wrong amount, a wrong network, or no funds", async () => {
    const p = await fundedPayer();
    const required = await storeRequirement(p);
    const [requirement] = required.accepts;
    if (!requirement) throw new Error("no requirement");
    const client = x402For(p.account);
    const before = await balances(p.address);
    const sendWith = async (payload: PaymentPayload, sender = p) => {
      const res = await sender.fetch(
        "/v1/store",
        postPaid({ content: uniqueText("refused") }, encodePaymentSignatureHeader(payload)),
      );
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(402);
      expect(res.headers.get("payment-required")).toBeTruthy();
      return body.error.details.reason as string;
    };
    const mismatch =
      "the payment does not match this call's requirement (scheme, network, asset, amount, payTo)";

    // The client signs for less than the price (its `accepted` says so).
    const cheaper = await client.createPaymentPayload({
      ...required,
      accepts: [{ ...requirement, amount: "1000" }],
    });
    expect(await sendWith(cheaper)).toBe(mismatch);

    // `accepted` copied from the 402, but the signed authorization is for less: only the
    // facilitator's verification can tell.
    const honestLooking = await client.createPaymentPayload({
      ...required,
      accepts: [{ ...requirement, amount: "1000" }],
    });
    expect(await sendWith({ ...honestLooking, accepted: requirement })).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch",
    );

    // Signed for Base Sepolia instead of the local chain.
    const otherNetwork = await client.createPaymentPayload({
      ...required,
      accepts: [{ ...requirement, network: "eip155:84532" }],
    });
    expect(await sendWith(otherNetwork)).toBe(mismatch);

    // A wallet without tokens: verification simulates the transfer and explains the failure.
    const broke = newPayer();
    const unfunded = await x402For(broke.account).createPaymentPayload(required);
    expect(await sendWith(unfunded, broke)).toBe("invalid_exact_evm_insufficient_balance");

    expectUnchanged(before, await balances(p.address));
    expect((await json(await p.fetch("/v1/memories"))).total).toBe(0);
  });
});
