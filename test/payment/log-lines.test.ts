/**
 * The request lines of paid calls (worker/middleware/request-log.ts): how each was paid for,
 * and never the payment itself (its header, signature or payer address).
 */
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { uniqueText } from "../helpers";
import { captureConsole, expectedTag, lineOf, requestLines, textOf } from "../log-capture";
import { exhaustAllowance, fundedPayer, newPayer, post, postPaid, storePayment } from "./chain";

describe("request lines of paid calls", () => {
  it("say required, paid or refused, with the payer's tag and nothing of the payment", async () => {
    const p = await fundedPayer();
    const broke = newPayer();
    await exhaustAllowance(broke.wallet);
    const content = uniqueText("log-line-paid durian");
    const calls = captureConsole();

    // The x402 client: a 402, then the same call with a payment, settled.
    const paid = await p.pay("/v1/store", post({ content }));
    expect(paid.status, await paid.clone().text()).toBe(201);
    // A payment from a wallet without funds: the facilitator's verification refuses it.
    const header = encodePaymentSignatureHeader(await storePayment(broke));
    const refused = await broke.fetch("/v1/store", postPaid({ content }, header));
    expect(refused.status).toBe(402);

    const lines = requestLines(calls());
    const payerTag = await expectedTag(p.address);
    const ofPayer = lines.filter((l) => l.wallet === payerTag);
    expect(ofPayer.map((l) => [l.status, l.payment])).toEqual([
      [402, "required"],
      [201, "paid"],
    ]);
    expect(lineOf(lines, paid.headers.get("x-request-id"))).toMatchObject({
      route: "storeMemory",
      method: "POST",
      payment: "paid",
    });
    const brokeTag = await expectedTag(broke.address);
    expect(lines.filter((l) => l.wallet === brokeTag).map((l) => [l.status, l.payment])).toEqual([
      [402, "required"],
      [402, "refused"],
    ]);
    // The refusal's reason, as its answer gives it.
    expect(lineOf(lines, refused.headers.get("x-request-id")).reason).toBe(
      "invalid_exact_evm_insufficient_balance",
    );
    expect(ofPayer.every((l) => l.reason === undefined)).toBe(true);

    const text = textOf(calls());
    const signatures = [p.sentPayments[0] ?? "", header].flatMap((sent) => {
      const decoded = JSON.parse(atob(sent)) as { payload?: { signature?: string } };
      return [sent, decoded.payload?.signature ?? ""];
    });
    expect(signatures.every((s) => s.length > 20)).toBe(true);
    for (const secret of [
      content,
      "durian",
      ...signatures,
      ...signatures.map((s) => s.slice(2)),
      p.address,
      p.wallet,
      p.wallet.slice(2),
      broke.address,
      broke.wallet.slice(2),
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
