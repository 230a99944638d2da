/** Payments not configured (the suite's default settings): a 402 that says nothing can be paid. */
import { SELF } from "cloudflare:test";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEFAULT_PAYMENT_CHAIN } from "../fixtures";
import { signAuth } from "../helpers";
import { BASE, exhaustAllowance, json } from "./chain";

describe("payments not configured (the suite's default settings)", () => {
  it("still answers an x402-shaped 402 that says nothing can be paid", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await exhaustAllowance(account.address.toLowerCase());
    const call = async (headers: Record<string, string> = {}) =>
      SELF.fetch(`${BASE}/v1/store`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-wallet-auth": await signAuth(account),
          ...headers,
        },
        body: JSON.stringify({ content: "x" }),
      });
    const res = await call();
    expect(res.status).toBe(402);
    expect((await json(res)).error.details.price).toMatchObject(DEFAULT_PAYMENT_CHAIN);
    expect(decodePaymentRequiredHeader(res.headers.get("payment-required") ?? "")).toEqual({
      x402Version: 2,
      error: "Payments are not configured on this service",
      resource: {
        url: `${BASE}/v1/store`,
        description: "POST /v1/store: 0.005 USDC per call",
        mimeType: "application/json",
      },
      accepts: [],
      extensions: expect.any(Object), // bazaar, payment-identifier, sign-in-with-x: test/x402/
    });
    const paid = await call({ "payment-signature": btoa("{}") });
    expect(paid.status).toBe(402);
    expect((await json(paid)).error.details.reason).toBe(
      "Payments are not configured on this service",
    );
  });
});
