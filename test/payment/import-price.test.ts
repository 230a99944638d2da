/**
 * POST /v1/import embeds every memory, like batch store, so it is priced like the batch stores
 * it replaces: 0.04 USDC per 100 memories begun, or one free call per 100 while the allowance
 * lasts (all of them or none). After the allowance it answers 402 before embedding anything.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { uniqueText } from "../helpers";
import { callsOf, countedProviders } from "../providers";
import { workerWith } from "../worker-with";
import {
  balances,
  chainEnv,
  exhaustAllowance,
  expectedAccepts,
  expectTransferred,
  fundedPayer,
  json,
  newPayer,
  post,
} from "./chain";

const memories = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({ content: uniqueText(`${tag} ${i}`) }));

describe("import is paid per 100 memories", () => {
  it("after the allowance: 402 for 10 batch stores, nothing embedded; paid, it imports", async () => {
    const model = `count:${crypto.randomUUID()}`;
    const worker = workerWith({ ...chainEnv, ...countedProviders(model) });
    const p = await fundedPayer("eip3009", worker);
    const body = { memories: memories(1000, "imported") };

    const unpaid = await p.fetch("/v1/import", post(body));
    expect(unpaid.status).toBe(402);
    const error = (await json(unpaid)).error;
    expect(error.code).toBe("PAYMENT_REQUIRED");
    expect(error.details.price).toMatchObject({ amount: "400000", usd: "0.4" });
    const required = decodePaymentRequiredHeader(unpaid.headers.get("payment-required") ?? "");
    expect(required.accepts).toEqual(expectedAccepts("400000"));
    expect(required.resource.description).toBe(
      "POST /v1/import: 0.4 USDC for this call (0.04 per 100 memories)",
    );
    expect(await callsOf(model)).toEqual({ embeddings: 0, chat: 0 });
    expect((await json(await p.fetch("/v1/memories/count"))).count).toBe(0);

    const before = await balances(p.address);
    const paid = await p.pay("/v1/import", post(body));
    expect(paid.status).toBe(201);
    expect((await json(paid)).imported).toBe(1000);
    expectTransferred(before, await balances(p.address), 400_000n);
  });

  it("a partial hundred costs a whole one: 101 memories are two batch stores", async () => {
    const p = await fundedPayer();
    const res = await p.fetch("/v1/import", post({ memories: memories(101, "partial") }));
    expect((await json(res)).error.details.price.amount).toBe("80000");
  });

  it("within the allowance, takes one free call per 100, all or none", async () => {
    const p = newPayer();
    const first = await p.fetch("/v1/import", post({ memories: memories(250, "free") }));
    expect(first.status).toBe(201);
    expect(await json(await p.fetch("/v1/free-tier/status"))).toMatchObject({ free_tier_used: 3 });

    // 5 free calls left: an import of 600 needs 6, so it takes none and asks for a payment.
    await exhaustAllowance(p.wallet, 95);
    const short = await p.fetch("/v1/import", post({ memories: memories(600, "short") }));
    expect(short.status).toBe(402);
    expect((await json(short)).error.details.price.amount).toBe("240000");
    expect(await json(await p.fetch("/v1/free-tier/status"))).toMatchObject({ free_tier_used: 95 });
    // 500 fit in the 5 left.
    const fits = await p.fetch("/v1/import", post({ memories: memories(500, "fits") }));
    expect(fits.status).toBe(201);
    expect(await json(await p.fetch("/v1/free-tier/status"))).toMatchObject({
      free_tier_used: 100,
    });
  });

  it("a failed import gives its free calls back", async () => {
    const p = newPayer();
    const bad = await p.fetch("/v1/import", post({ memories: [{ content: "" }] }));
    expect(bad.status).toBe(422);
    expect(await json(await p.fetch("/v1/free-tier/status"))).toMatchObject({ free_tier_used: 0 });
  });
});
