/**
 * Paid calls through a grant (docs/sharing.md): the grantee pays, on the local chain, with the
 * real x402 client; the owner pays nothing and its allowance is untouched. A grantee without a
 * usable write grant gets its 404 or 403 with nothing written, and its price credited back, as
 * any paid call that fails after its payment settled (docs/payments.md).
 */
import { describe, expect, it } from "vitest";
import { balances, expectTransferred, json, newPayer, post, readyToPay } from "./chain";

const grantTo = (grantee: string, permission: "read" | "write") =>
  post({ grantee, namespace: "team", permission });

describe("paid calls through a grant", () => {
  it("are paid by the grantee, settled before the work, and leave the owner's allowance", async () => {
    const owner = newPayer();
    const agent = newPayer();
    const stored = await owner.fetch(
      "/v1/store",
      post({ content: "The team ships on Fridays", namespace: "team" }),
    );
    expect(stored.status).toBe(201);
    expect((await owner.fetch("/v1/grants", grantTo(agent.address, "write"))).status).toBe(201);
    await readyToPay(agent);
    const ownerBefore = await json(await owner.fetch("/v1/free-tier/status"));
    const before = await balances(agent.address);
    const ownerCoins = await balances(owner.address);

    const recall = await agent.pay(`/v1/recall?owner=${owner.address}`, post({ query: "ships" }));
    expect(recall.status).toBe(200);
    expect((await json(recall)).memories.map((m: { content: string }) => m.content)).toEqual([
      "The team ships on Fridays",
    ]);
    const store = await agent.pay(
      `/v1/store?owner=${owner.address}`,
      post({ content: "Releases need a changelog", namespace: "team" }),
    );
    expect(store.status).toBe(201);
    expect((await json(store)).memory.created_by).toBe(agent.wallet);
    expectTransferred(before, await balances(agent.address), 10_000n);
    expect((await balances(owner.address)).payer).toBe(ownerCoins.payer);
    expect(await json(await owner.fetch("/v1/free-tier/status"))).toEqual(ownerBefore);
    expect(agent.sentPayments).toHaveLength(2);
  });

  it("refuse a grantee without a write grant, write nothing and credit the price back", async () => {
    const owner = newPayer();
    const reader = newPayer();
    const stranger = newPayer();
    expect((await owner.fetch("/v1/grants", grantTo(reader.address, "read"))).status).toBe(201);
    for (const [w, status] of [
      [reader, 403],
      [stranger, 404],
    ] as const) {
      await readyToPay(w);
      const before = await balances(w.address);
      const res = await w.pay(
        `/v1/store?owner=${owner.address}`,
        post({ content: "A note the owner never allowed", namespace: "team" }),
      );
      // 402 first (no free call left); the paid retry settles, is refused, and is credited.
      expect(res.status).toBe(status);
      expect(res.headers.get("x-payment-credited")).toBeTruthy();
      expectTransferred(before, await balances(w.address), 5_000n);
      // The credit pays the next call: no payment is asked for a recall it may make.
      const next = await w.fetch(`/v1/recall?owner=${owner.address}`, post({ query: "note" }));
      expect(next.status).toBe(200);
    }
    expect((await json(await owner.fetch("/v1/memories/count"))).count).toBe(0);
  });
});
