/**
 * POST /mcp driven by the official MCP SDK (Client + StreamableHTTPClientTransport) against
 * `npm run dev:chain`, started as a user starts it (dev-chain.ts): tools listed from the
 * contract; store then recall; another wallet sees nothing; bad arguments are tool errors; no
 * identity is MCP's own error with the 401 reason; and, once the wallet's 100 free calls are
 * used, a paid recall over the x402 MCP transport, settled on the local chain. One file, so
 * one dev server: two started at once race for wrangler's inspector port (9229).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { type Address, createPublicClient, createWalletClient, erc20Abi, http } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { describe, expect, it } from "vitest";
import { devChain } from "./dev-chain";

const PREFIX = "service-auth";

const dev = devChain();

async function signAuth(account: PrivateKeyAccount) {
  const ts = Math.floor(Date.now() / 1000);
  const signature = await account.signMessage({ message: `${PREFIX}:${ts}` });
  return `${account.address}:${ts}:${signature}`;
}

/**
 * An MCP client of one wallet (or of none). Every HTTP request is signed afresh, and paced by
 * the X-RateLimit headers: a wallet may send 100 requests a minute.
 */
async function connect(account?: PrivateKeyAccount): Promise<Client> {
  let waitUntil = 0;
  const transport = new StreamableHTTPClientTransport(new URL(`${dev().baseUrl}/mcp`), {
    fetch: async (url, init) => {
      const pause = waitUntil - Date.now();
      if (pause > 0) await new Promise((r) => setTimeout(r, pause));
      const headers = new Headers(init?.headers);
      if (account) headers.set("x-wallet-auth", await signAuth(account));
      const res = await fetch(url, { ...init, headers });
      if (Number(res.headers.get("x-ratelimit-remaining") ?? 100) <= 1) {
        waitUntil = Number(res.headers.get("x-ratelimit-reset")) * 1000 + 250;
      }
      return res;
    },
  });
  const client = new Client({ name: "memory-service-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const chainClient = () => createPublicClient({ chain: foundry, transport: http(dev().rpcUrl) });

const balanceOf = (address: Address) =>
  chainClient().readContract({
    address: dev().asset,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });

/** Sends test USDC from the dev chain's funded test payer (its key is in the dev log). */
async function fund(to: Address, amount: bigint) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(dev().payerKey),
    chain: foundry,
    transport: http(dev().rpcUrl),
  });
  const hash = await wallet.writeContract({
    address: dev().asset,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to, amount],
  });
  await chainClient().waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(await balanceOf(to)).toBe(amount);
}

const structured = (result: unknown) =>
  (result as { structuredContent: Record<string, unknown> }).structuredContent;
const errorText = (result: unknown) => {
  const r = result as { isError?: boolean; content: Array<{ text: string }> };
  expect(r.isError).toBe(true);
  return JSON.parse(r.content[0]?.text ?? "{}");
};

describe("POST /mcp with the official MCP SDK client", () => {
  it("lists the memory API as tools generated from the contract", async () => {
    const client = await connect(privateKeyToAccount(generatePrivateKey()));
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      "memoclaw_store",
      "memoclaw_recall",
      "memoclaw_context",
      "memoclaw_graph",
    ]) {
      expect(names).toContain(name);
    }
    expect(tools.length).toBeGreaterThanOrEqual(30);
    const store = tools.find((t) => t.name === "memoclaw_store");
    expect(store?.inputSchema.required).toEqual(["content"]);
    expect(store?.outputSchema?.properties).toHaveProperty("deduplicated");
    expect(store?.description).toContain("0.005 USDC");
    await client.close();
  });

  it("stores then recalls by meaning; another wallet sees nothing", async () => {
    const owner = await connect(privateKeyToAccount(generatePrivateKey()));
    const stored = structured(
      await owner.callTool({
        name: "memoclaw_store",
        arguments: { content: "The car needs new tires", memory_type: "project" },
      }),
    );
    expect(stored).toMatchObject({ stored: true, deduplicated: false });
    const recalled = structured(
      await owner.callTool({
        name: "memoclaw_recall",
        arguments: { query: "automobile maintenance", limit: 3 },
      }),
    );
    const memories = recalled.memories as Array<{ id: string; content: string }>;
    expect(memories[0]).toMatchObject({ id: stored.id, content: "The car needs new tires" });

    const stranger = await connect(privateKeyToAccount(generatePrivateKey()));
    const theirs = structured(
      await stranger.callTool({
        name: "memoclaw_recall",
        arguments: { query: "automobile maintenance" },
      }),
    );
    expect(theirs.memories).toEqual([]);
    const get = errorText(
      await stranger.callTool({ name: "memoclaw_get", arguments: { id: stored.id } }),
    );
    expect(get).toMatchObject({ status: 404, error: { code: "NOT_FOUND" } });
    const del = errorText(
      await stranger.callTool({ name: "memoclaw_delete", arguments: { id: stored.id } }),
    );
    expect(del.status).toBe(404);
    const still = structured(
      await owner.callTool({ name: "memoclaw_get", arguments: { id: stored.id } }),
    );
    expect(still).toMatchObject({ id: stored.id, memory_type: "project" });
    await Promise.all([owner.close(), stranger.close()]);
  });

  it("answers bad arguments with a clear tool error, and no identity with MCP's own 401", async () => {
    const client = await connect(privateKeyToAccount(generatePrivateKey()));
    const missing = errorText(await client.callTool({ name: "memoclaw_store", arguments: {} }));
    expect(missing).toMatchObject({ status: 422, error: { code: "VALIDATION_ERROR" } });
    expect(missing.error.details.issues[0].path).toBe("content");
    const badId = errorText(
      await client.callTool({ name: "memoclaw_get", arguments: { id: "not-a-uuid" } }),
    );
    expect(badId.error.message).toContain("UUID");
    const badType = errorText(
      await client.callTool({ name: "memoclaw_recall", arguments: { query: "x", limit: "many" } }),
    );
    expect(badType.status).toBe(422);
    await expect(client.callTool({ name: "memoclaw_nope", arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    await client.close();

    const anonymous = await connect();
    expect((await anonymous.listTools()).tools.length).toBeGreaterThanOrEqual(30);
    const refused = await anonymous.callTool({ name: "memoclaw_list", arguments: {} }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32001);
    expect((refused as McpError).message).toContain("Authentication required");
    await anonymous.close();
  });

  it("after the 100 free calls, answers a paid tool with x402 requirements and settles the paid retry on chain", async () => {
    // A fresh payer (the dev chain's funded test payer keeps its used allowance in the Meter's
    // state across runs), given 1 test USDC by the funded one.
    const payer = privateKeyToAccount(generatePrivateKey());
    await fund(payer.address, 1_000_000n);
    const client = await connect(payer);
    // The free allowance: 100 paid calls (stores), paced under the rate limit.
    for (let i = 0; i < 100; i++) {
      const r = await client.callTool({
        name: "memoclaw_store",
        arguments: { content: `free call number ${i}: the payer's note ${crypto.randomUUID()}` },
      });
      expect(r.isError ?? false).toBe(false);
    }
    const asked = await client.callTool({
      name: "memoclaw_recall",
      arguments: { query: "the payer's note", limit: 2 },
    });
    expect(asked.isError).toBe(true);
    const required = structured(asked) as unknown as PaymentRequired;
    expect(required.x402Version).toBe(2);
    expect(required.accepts[0]).toMatchObject({
      scheme: "exact",
      network: dev().network,
      asset: dev().asset,
      amount: "5000",
      payTo: dev().payTo,
    });
    const wrapped = JSON.parse((asked.content as Array<{ text: string }>)[0]?.text ?? "{}");
    expect(wrapped["x402/error"]).toMatchObject({ code: 402, data: required });

    const balance = () => balanceOf(payer.address);
    const before = await balance();
    const network = dev().network as `${string}:${string}`;
    const x402 = x402Client.fromConfig({
      schemes: [{ network, client: new ExactEvmScheme(payer) }],
      // The local chain's test token is not one of the client's default assets.
      spendControls: { allowedAssets: [{ network, asset: dev().asset }] },
    });
    const payment = await x402.createPaymentPayload(required);
    const paid = await client.callTool({
      name: "memoclaw_recall",
      arguments: { query: "the payer's note", limit: 2 },
      _meta: { "x402/payment": payment },
    });
    expect(paid.isError ?? false).toBe(false);
    expect((structured(paid).memories as unknown[]).length).toBe(2);
    const settlement = (paid._meta as Record<string, Record<string, unknown>>)[
      "x402/payment-response"
    ];
    expect(settlement).toMatchObject({ success: true, network: dev().network });
    expect(String(settlement?.transaction)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balance()).toBe(before - 5000n);
    await client.close();
  }, 240_000);
});
