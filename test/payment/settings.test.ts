/**
 * Payment settings that contradict each other show where the operator looks (GET /health, and
 * the log) instead of failing the first paid call after a wallet's allowance. Such a call is a
 * 503 that says payments are unavailable, never a 500; free calls keep working.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { localChainVars } from "../../local/chain/details";
import { expectError, newWallet, request } from "../helpers";
import { workerWith } from "../worker-with";
import { chain, chainEnv, exhaustAllowance } from "./chain";

const PAY_TO = chain.payTo;

describe("payment settings", () => {
  it("/health reports payments on when they agree", async () => {
    const res = await request("GET", "/health", { fetch: workerWith(chainEnv) });
    expect(res.body).toMatchObject({
      status: "ok",
      payments: { status: "on", network: chain.network },
    });
    expect(res.body.payments.problems).toBeUndefined();
  });

  it.each<[string, Record<string, string>, RegExp]>([
    ["X402_PAY_TO alone", { X402_PAY_TO: PAY_TO }, /X402_PAY_TO is set but no facilitator/],
    [
      "two facilitators",
      {
        X402_PAY_TO: PAY_TO,
        X402_FACILITATOR_URL: "https://f.example",
        X402_FACILITATOR_KEY: chain.facilitatorKey,
      },
      /both set: choose one facilitator/,
    ],
    [
      "a remote facilitator on a chain the service cannot read",
      {
        ...localChainVars(chain),
        X402_RPC_URL: "",
        X402_FACILITATOR_KEY: "",
        X402_FACILITATOR_URL: "https://f.example",
      },
      /needs X402_RPC_URL too/,
    ],
    [
      "an RPC URL without a key",
      { X402_PAY_TO: PAY_TO, X402_RPC_URL: chain.rpcUrl },
      /needs both X402_RPC_URL and X402_FACILITATOR_KEY/,
    ],
    [
      "a facilitator without X402_PAY_TO",
      { X402_FACILITATOR_URL: "https://f.example" },
      /X402_PAY_TO is not: nothing can be paid/,
    ],
    [
      "a network without a known USDC",
      { X402_NETWORK: "eip155:999999" },
      /X402_ASSET is required on eip155:999999/,
    ],
    [
      "payments with metering off",
      { ...localChainVars(chain), METERING: "off" },
      /X402_PAY_TO is set but METERING=off/,
    ],
  ])(
    "reports %s as misconfigured; a paid call after the allowance is a 503",
    async (_name, vars, problem) => {
      const worker = workerWith({ ...env, ...vars });
      const health = await request("GET", "/health", { fetch: worker });
      expect(health.status).toBe(200);
      expect(health.body.status).toBe("degraded");
      expect(health.body.payments.status).toBe("misconfigured");
      expect(health.body.payments.problems.join("\n")).toMatch(problem);

      const w = newWallet(worker);
      // Free calls, and paid calls within the allowance, are served.
      expect((await w.call("GET", "/v1/memories")).status).toBe(200);
      if (vars.METERING === "off") return;
      expect((await w.call("POST", "/v1/recall", { query: "x" })).status).toBe(200);
      await exhaustAllowance(w.address.toLowerCase());
      const paid = await w.call("POST", "/v1/recall", { query: "x" });
      expectError(paid, 503, "SERVICE_UNAVAILABLE");
      expect(paid.body.error.message).toMatch(/payment settings contradict/);
    },
  );
});
