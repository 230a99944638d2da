/**
 * FREE_CALLS_PER_IP_PER_DAY: the operator's cap on free-allowance calls that the wallets calling
 * from one client IP may take in a day. Wallets cost nothing to make; without the cap one client
 * could claim every new wallet's 100 free calls. Off unless set (npm run dev and the suite).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectError, newWallet } from "../helpers";
import { workerWith } from "../worker-with";

const capped = workerWith({ ...env, FREE_CALLS_PER_IP_PER_DAY: "3" });
const freshIp = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID()}`;

describe("free calls per client IP per day", () => {
  it("lets wallets from one IP take the cap between them, then asks them to pay", async () => {
    const ip = freshIp();
    const from = { "cf-connecting-ip": ip };
    const wallets = Array.from({ length: 4 }, () => newWallet(capped));
    const statuses = [];
    for (const w of wallets) {
      statuses.push((await w.call("POST", "/v1/recall", { query: "x" }, from)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 402]);
    const refused = await wallets[3]?.call("POST", "/v1/recall", { query: "x" }, from);
    const error = expectError(
      refused ?? { status: 0, body: {}, headers: new Headers() },
      402,
      "PAYMENT_REQUIRED",
    );
    expect(error.message).toMatch(/network address are used up for today/);
    // The refused wallet's own allowance is untouched, and another IP is not capped.
    const status = await wallets[3]?.call("GET", "/v1/free-tier/status", undefined, from);
    expect(status?.body.free_tier_used).toBe(0);
    const elsewhere = await wallets[3]?.call(
      "POST",
      "/v1/recall",
      { query: "x" },
      {
        "cf-connecting-ip": freshIp(),
      },
    );
    expect(elsewhere?.status).toBe(200);
  });

  it("gives the IP's count back with a call that fails", async () => {
    const from = { "cf-connecting-ip": freshIp() };
    const w = newWallet(capped);
    for (let i = 0; i < 5; i++) {
      const res = await w.call(
        "PATCH",
        `/v1/memories/${crypto.randomUUID()}`,
        { importance: 1 },
        from,
      );
      expect(res.status).toBe(404);
    }
    for (let i = 0; i < 3; i++) {
      expect((await w.call("POST", "/v1/recall", { query: "x" }, from)).status).toBe(200);
    }
    expect((await w.call("POST", "/v1/recall", { query: "x" }, from)).status).toBe(402);
  });

  it("counts exactly the cap under concurrency", async () => {
    const from = { "cf-connecting-ip": freshIp() };
    const wallets = Array.from({ length: 8 }, () => newWallet(capped));
    const statuses = await Promise.all(
      wallets.map((w) => w.call("POST", "/v1/recall", { query: "x" }, from).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(5);
  });

  it("is off by default: the suite's Worker caps nothing", async () => {
    const from = { "cf-connecting-ip": freshIp() };
    for (let i = 0; i < 5; i++) {
      const w = newWallet();
      expect((await w.call("POST", "/v1/recall", { query: "x" }, from)).status).toBe(200);
    }
  });
});
