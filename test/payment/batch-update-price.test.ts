/**
 * A batch update that embeds (any item carries `content`) is priced like a batch store, 0.04
 * USDC; one without content stays 0.005 (issue #44). Either way it takes one free call while
 * the allowance lasts, and its 402 and PAYMENT-REQUIRED ask this call's amount.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { MISSING_ID, request, uniqueText } from "../helpers";
import { callsOf, countedProviders } from "../providers";
import { workerWith } from "../worker-with";
import {
  balances,
  chainEnv,
  expectedAccepts,
  expectTransferred,
  fundedPayer,
  json,
  newPayer,
  type Payer,
  post,
} from "./chain";

const PATHS = [
  ["PATCH", "/v1/memories/batch"],
  ["POST", "/v1/memories/batch-update"],
] as const;

const withContent = () => ({ updates: [{ id: MISSING_ID, content: uniqueText("embedded") }] });
const metadataOnly = { updates: [{ id: MISSING_ID, importance: 0.4 }] };

const send = (p: Payer, method: string, path: string, body: unknown, pay = false) =>
  (pay ? p.pay : p.fetch)(path, { ...post(body), method });

describe("batch update price", () => {
  it("402: with content it asks 40000 (a batch store), without 5000; nothing embedded", async () => {
    const model = `batch-price:${crypto.randomUUID()}`;
    const p = await fundedPayer("eip3009", workerWith({ ...chainEnv, ...countedProviders(model) }));
    for (const [method, path] of PATHS) {
      for (const [body, amount, usd] of [
        [withContent(), "40000", "0.04"],
        [metadataOnly, "5000", "0.005"],
      ] as const) {
        const res = await send(p, method, path, body);
        expect(res.status, `${method} ${path} ${amount}`).toBe(402);
        const error = (await json(res)).error;
        expect(error.code).toBe("PAYMENT_REQUIRED");
        expect(error.details.price).toMatchObject({ amount, usd });
        const required = decodePaymentRequiredHeader(res.headers.get("payment-required") ?? "");
        expect(required.accepts).toEqual(expectedAccepts(amount));
        expect(required.resource.description).toBe(`${method} ${path}: ${usd} USDC per call`);
      }
    }
    expect(await callsOf(model)).toEqual({ embeddings: 0, chat: 0 });
  });

  it("paid: a batch that embeds settles 40000, one without content 5000", async () => {
    const p = await fundedPayer();
    const stored = await p.pay("/v1/store", post({ content: uniqueText("to update") }));
    expect(stored.status).toBe(201);
    const { id } = await json(stored);
    let before = await balances(p.address);
    const content = uniqueText("paid rewrite");
    const embedded = await send(
      p,
      "PATCH",
      "/v1/memories/batch",
      { updates: [{ id, content }] },
      true,
    );
    expect(embedded.status).toBe(200);
    expect(await json(embedded)).toMatchObject({ updated: 1, errors: [] });
    expectTransferred(before, await balances(p.address), 40_000n);
    before = await balances(p.address);
    const plain = await send(
      p,
      "POST",
      "/v1/memories/batch-update",
      {
        updates: [{ id, importance: 0.8 }],
      },
      true,
    );
    expect(plain.status).toBe(200);
    expectTransferred(before, await balances(p.address), 5000n);
    expect(await json(await p.fetch(`/v1/memories/${id}`))).toMatchObject({
      content,
      importance: 0.8,
    });
  });

  it("within the allowance, takes one free call with content or without", async () => {
    const p = newPayer();
    const status = async () => (await json(await p.fetch("/v1/free-tier/status"))).free_tier_used;
    for (const [method, path] of PATHS) {
      const before = await status();
      expect((await send(p, method, path, withContent())).status).toBe(200);
      expect(await status()).toBe(before + 1);
      expect((await send(p, method, path, metadataOnly)).status).toBe(200);
      expect(await status()).toBe(before + 2);
    }
  });

  it("a credit of 5000 pays a batch without content, not one that embeds", async () => {
    const p = await fundedPayer();
    // A paid PATCH of a missing memory fails after settling: its 5000 is credited.
    const missing = await p.pay(`/v1/memories/${MISSING_ID}`, {
      ...post({ importance: 0.9 }),
      method: "PATCH",
    });
    expect(missing.status).toBe(404);
    const credit = async () => (await json(await p.fetch("/v1/free-tier/status"))).credit;
    expect(await credit()).toEqual({ amount: "5000", usd: "0.005" });

    const embeds = await send(p, "PATCH", "/v1/memories/batch", withContent());
    expect(embeds.status).toBe(402);
    expect((await json(embeds)).error.details.price.amount).toBe("40000");
    expect(await credit()).toEqual({ amount: "5000", usd: "0.005" });

    expect((await send(p, "PATCH", "/v1/memories/batch", metadataOnly)).status).toBe(200);
    expect(await credit()).toBeUndefined();
  });

  it("declares the dearer price in /openapi.json, on the operation and its alias", async () => {
    const doc = (await request("GET", "/openapi.json")).body;
    for (const [method, path] of PATHS) {
      const op = doc.paths[path][method.toLowerCase()];
      expect(op["x-price-usd"]).toBe("0.005");
      expect(op["x-price-if"]).toEqual({
        usd: "0.04",
        when: "any item carries content (it is embedded)",
      });
    }
    expect(doc.paths["/v1/memories/batch"].patch.description).toContain("0.04 USDC");
    expect(doc.paths["/v1/store"].post["x-price-if"]).toBeUndefined();
  });
});
