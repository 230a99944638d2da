/** Identity from the payment alone (spec, Authentication, way 3): the payer is the caller. */
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { uniqueText } from "../helpers";
import {
  approvePermit2,
  BASE,
  balances,
  chainFetch,
  exhaustAllowance,
  expectTransferred,
  json,
  mint,
  newPayer,
  type PayBy,
  postPaid,
  storePayment,
} from "./chain";

describe("identity from the payment alone (spec, Authentication, way 3)", () => {
  it.each<PayBy>(["eip3009", "permit2"])(
    "stores the memory for the payer, with no x-wallet-auth, leaving its allowance (%s)",
    async (by) => {
      const payer = newPayer(by);
      await mint(payer.address, 1_000_000n);
      if (by === "permit2") await approvePermit2(payer.account);
      // The requirement of a store call, as any exhausted wallet's 402 announces it.
      const other = newPayer();
      await exhaustAllowance(other.wallet);
      const payload = await storePayment(payer, other, by);
      const before = await balances(payer.address);

      const content = uniqueText("paid without a wallet header");
      const res = await chainFetch(
        `${BASE}/v1/store`,
        postPaid({ content }, encodePaymentSignatureHeader(payload)),
      );
      expect(res.status).toBe(201);
      const { id } = await json(res);
      expect(decodePaymentResponseHeader(res.headers.get("payment-response") ?? "").success).toBe(
        true,
      );
      expectTransferred(before, await balances(payer.address), 5000n);

      // The memory belongs to the payer, not to anyone else; the payer's allowance is intact.
      expect((await json(await payer.fetch(`/v1/memories/${id}`))).content).toBe(content);
      expect((await other.fetch(`/v1/memories/${id}`)).status).toBe(404);
      expect(await json(await payer.fetch("/v1/free-tier/status"))).toMatchObject({
        wallet: payer.wallet,
        free_tier_used: 0,
      });
    },
  );

  it("refuses a payment whose signature is not the payer's (401), and free endpoints ignore it", async () => {
    const payer = newPayer();
    const other = newPayer();
    await exhaustAllowance(other.wallet);
    const payload = await storePayment(payer, other);
    const forged = {
      ...payload,
      payload: {
        ...payload.payload,
        authorization: {
          ...(payload.payload.authorization as Record<string, unknown>),
          from: other.address,
        },
      },
    };
    const send = (path: string, method: string, p: PaymentPayload) =>
      chainFetch(`${BASE}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          "payment-signature": encodePaymentSignatureHeader(p),
        },
        ...(method === "POST" ? { body: JSON.stringify({ content: "forged" }) } : {}),
      });
    const res = await send("/v1/store", "POST", forged);
    expect(res.status).toBe(401);
    expect((await json(res)).error.message).toBe(
      "PAYMENT-SIGNATURE is not signed by its payer (from)",
    );
    expect((await send("/v1/store", "POST", { ...payload, x402Version: 1 })).status).toBe(401);
    // A payment is not an identity on a free endpoint.
    expect((await send("/v1/memories", "GET", payload)).status).toBe(401);
  });
});
