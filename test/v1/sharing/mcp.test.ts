/**
 * The MCP tools of the operations a grant opens take `owner`, sent as `?owner=`; /mcp itself
 * refuses `?owner=` of another wallet with a 403.
 */
import { describe, expect, it } from "vitest";
import type { Json, Wallet } from "../../helpers";
import { expectError, newWallet, request } from "../../helpers";
import { as, grant, opsSharedHrNot } from "./fixtures";

const MCP_HEADERS = { accept: "application/json, text/event-stream" };

async function rpc(w: Wallet, method: string, params: object): Promise<Json> {
  const res = await w.call("POST", "/mcp", { jsonrpc: "2.0", id: 1, method, params }, MCP_HEADERS);
  expect(res.status).toBe(200);
  return res.body.result;
}

describe("MCP tools through a grant", () => {
  it("offer `owner` on the shared operations' tools, and only there", async () => {
    const { tools } = await rpc(newWallet(), "tools/list", {});
    const withOwner = tools
      .filter((t: Json) => t.inputSchema.properties.owner)
      .map((t: Json) => t.name)
      .sort();
    expect(withOwner).toEqual(
      [
        "memoclaw_batch_update",
        "memoclaw_bulk_store",
        "memoclaw_changes",
        "memoclaw_context",
        "memoclaw_count",
        "memoclaw_delete",
        "memoclaw_export",
        "memoclaw_get",
        "memoclaw_graph",
        "memoclaw_history",
        "memoclaw_list",
        "memoclaw_recall",
        "memoclaw_search",
        "memoclaw_store",
        "memoclaw_suggested",
        "memoclaw_update",
      ].sort(),
    );
  });

  it("recall and store in the owner's shared namespace, and nowhere else", async () => {
    const { owner, agent, crane: shared } = await opsSharedHrNot();
    const call = (name: string, args: object) =>
      rpc(agent, "tools/call", { name, arguments: { owner: owner.address, ...args } });

    const recalled = await call("memoclaw_recall", { query: "harbour", limit: 10 });
    expect(recalled.isError).toBeFalsy();
    expect(recalled.structuredContent.memories.map((m: Json) => m.id)).toEqual([shared]);
    const stored = await call("memoclaw_store", {
      content: "The crane's new cable arrived",
      namespace: "ops",
    });
    expect(stored.isError).toBeFalsy();
    expect(await owner.getMemory(stored.structuredContent.id)).toMatchObject({
      namespace: "ops",
      created_by: agent.address.toLowerCase(),
    });
    const refused = await call("memoclaw_store", { content: "A note for HR", namespace: "hr" });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0].text)).toMatchObject({ status: 404 });
    expect((await agent.getOk("/v1/memories/count")).count).toBe(0);
  });

  it("refuse `?owner=` of another wallet on /mcp itself: 403, grant or not, wallet or none", async () => {
    const owner = newWallet();
    const agent = newWallet();
    await owner.storeNew("The lighthouse keeper logs the weather hourly", { namespace: "ops" });
    await grant(owner, agent, "ops", "write");
    const recall = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "memoclaw_recall", arguments: { query: "lighthouse" } },
    };
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    for (const body of [recall, list, [recall, list]]) {
      // The grantee, a wallet without a grant, and no wallet at all.
      for (const res of [
        await agent.call("POST", as("/mcp", owner), body, MCP_HEADERS),
        await newWallet().call("POST", as("/mcp", owner), body, MCP_HEADERS),
        await request("POST", as("/mcp", owner), { body, headers: MCP_HEADERS }),
      ]) {
        const error = expectError(res, 403, "FORBIDDEN");
        expect(error.message).toMatch(/argument/);
      }
    }
    // Lower case or checksummed, the owner named is still another wallet.
    expectError(
      await agent.call("POST", as("/mcp", owner.address.toLowerCase()), recall, MCP_HEADERS),
      403,
      "FORBIDDEN",
    );
    // Not an address at all: the 422 `owner` gets everywhere.
    expectError(
      await agent.call("POST", "/mcp?owner=someone", recall, MCP_HEADERS),
      422,
      "VALIDATION_ERROR",
    );
    // Naming itself is the caller's own request, as on every route: its own (empty) memories.
    for (const self of [agent.address, agent.address.toLowerCase()]) {
      const own = await agent.call("POST", as("/mcp", self), recall, MCP_HEADERS);
      expect(own.status).toBe(200);
      expect(own.body.result.structuredContent.memories).toEqual([]);
    }
    // Through the tool's own argument, the grant serves.
    const shared = await rpc(agent, "tools/call", {
      name: "memoclaw_recall",
      arguments: { owner: owner.address, query: "lighthouse" },
    });
    expect(shared.structuredContent.memories).toHaveLength(1);
  });
});
