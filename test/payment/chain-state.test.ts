/**
 * What the service reads on chain when a settlement's outcome is unknown
 * (worker/payment/chain-state.ts): whether a payment's authorization was used, by EIP-3009's
 * authorizationState and by Permit2's nonce bitmap, before and after the payment settles.
 */
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { authorizationOf, authorizationUsed } from "../../worker/payment/chain-state";
import { decodePayment } from "../../worker/payment/payload";
import { uniqueText } from "../helpers";
import { chain, fundedPayer, type PayBy, postPaid, storePayment } from "./chain";

describe.each<PayBy>(["eip3009", "permit2"])("authorizationUsed (%s)", (by) => {
  it("is false before the payment settles and true after", async () => {
    const p = await fundedPayer(by);
    const header = encodePaymentSignatureHeader(await storePayment(p, p, by));
    const decoded = decodePayment(header);
    if (!decoded.ok) throw new Error(decoded.reason);
    const auth = authorizationOf(decoded.payment);
    expect(auth.method).toBe(by);
    expect(await authorizationUsed(chain.rpcUrl, auth)).toBe(false);
    const res = await p.fetch(
      "/v1/store",
      postPaid({ content: uniqueText("read on chain") }, header),
    );
    expect(res.status).toBe(201);
    expect(await authorizationUsed(chain.rpcUrl, auth)).toBe(true);
  });
});
