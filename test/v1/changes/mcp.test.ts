/**
 * The change feed as the MCP tool `memoclaw_changes` (docs/mcp.md): what an agent stores
 * through the API is an event the tool answers; `next_cursor` resumes after it and `wait`
 * answers as soon as the next change commits; with `owner`, a grantee reads the events of the
 * namespace shared with it, whoever wrote them, and nothing of the owner's other namespaces.
 */
import { describe, expect, it } from "vitest";
import { callTool, type Json, MCP_HEADERS, newWallet, type Wallet } from "../../helpers";
import { as, opsSharedHrNot } from "../sharing/fixtures";

/** The tool's result, which must be no error: the feed's page. */
async function changes(w: Wallet, args: object): Promise<Json> {
  const res = await callTool(w, "memoclaw_changes", args);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const result = res.body.result;
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  // The text is the same page as structuredContent, for clients that read text only.
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

describe("the MCP tool memoclaw_changes", () => {
  it("is listed read-only, with the feed's parameters and how to follow it", async () => {
    const w = newWallet();
    const res = await w.call(
      "POST",
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      MCP_HEADERS,
    );
    const tool = res.body.result.tools.find((t: Json) => t.name === "memoclaw_changes");
    expect(tool).toBeDefined();
    expect(Object.keys(tool.inputSchema.properties).sort()).toEqual(
      ["since", "namespace", "limit", "wait", "kinds", "include_content", "owner"].sort(),
    );
    expect(tool.inputSchema.required).toBeUndefined();
    // The query string's booleans are JSON booleans to an agent.
    expect(tool.inputSchema.properties.include_content.type).toBe("boolean");
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool.description).toMatch(/call again with `since` set to it/);
    expect(tool.description).toMatch(/pass `wait`/);
    expect(tool.description).toMatch(/Free\.$/);
    const kinds = tool.outputSchema.properties.changes.items.properties.kind.enum;
    expect(kinds).toContain("memory.stored");
  });

  it("answers what the agent stored through the API, then resumes after it", async () => {
    const agent = newWallet();
    const first = await agent.storeNew("The boiler is serviced every October", {
      namespace: "house",
    });
    const page = await changes(agent, {});
    expect(page.has_more).toBe(false);
    expect(page.changes).toHaveLength(1);
    expect(page.changes[0]).toMatchObject({
      kind: "memory.stored",
      namespace: "house",
      memory_id: first,
      created_by: agent.address.toLowerCase(),
    });
    expect(page.changes[0].content).toBeUndefined();
    expect(page.next_cursor).toBe(page.changes[0].cursor);

    // Nothing new after the cursor.
    const none = await changes(agent, { since: page.next_cursor });
    expect(none).toEqual({ changes: [], next_cursor: page.next_cursor, has_more: false });

    // The next store, with its content, and the kinds filter.
    const second = await agent.storeNew("The gutters are cleared in November", {
      namespace: "house",
    });
    expect((await agent.post("/v1/memories/core", { memory_id: second })).status).toBe(200);
    const next = await changes(agent, { since: page.next_cursor, include_content: true });
    expect(next.changes.map((e: Json) => [e.kind, e.memory_id])).toEqual([
      ["memory.stored", second],
      ["memory.pinned", second],
    ]);
    expect(next.changes[0].content).toBe("The gutters are cleared in November");
    const pins = await changes(agent, { since: page.next_cursor, kinds: "memory.pinned" });
    expect(pins.changes.map((e: Json) => e.kind)).toEqual(["memory.pinned"]);
    // A page of one: has_more says there is more, and its cursor resumes after it.
    const one = await changes(agent, { limit: 1 });
    expect(one.has_more).toBe(true);
    expect(one.changes[0].memory_id).toBe(first);
    expect(one.next_cursor).toBe(one.changes[0].cursor);
  });

  it("with `wait`, answers as soon as the next change commits", async () => {
    const agent = newWallet();
    const start = await changes(agent, { since: "now" });
    expect(start.changes).toEqual([]);
    const began = Date.now();
    const waiting = changes(agent, { since: start.next_cursor, wait: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const id = await agent.storeNew("The chimney is swept in September");
    const page = await waiting;
    expect(page.changes.map((e: Json) => [e.kind, e.memory_id])).toEqual([["memory.stored", id]]);
    expect(Date.now() - began).toBeLessThan(15_000);
  });

  it("refuses a bad argument as a tool error with the API's error", async () => {
    const res = await callTool(newWallet(), "memoclaw_changes", { kinds: "memory.eaten" });
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({
      status: 422,
      error: { code: "VALIDATION_ERROR" },
    });
  });

  it("with `owner`, answers the shared namespace's events, the grantee's writes included", async () => {
    const { owner, agent, crane } = await opsSharedHrNot();
    // The agent writes in the owner's namespace through its grant.
    const cable = await agent.post(as("/v1/store", owner), {
      content: "The crane's new cable arrived",
      namespace: "ops",
    });
    expect(cable.status, JSON.stringify(cable.body)).toBe(201);

    const page = await changes(agent, { owner: owner.address, include_content: true });
    const memoryEvents = page.changes.filter((e: Json) => e.kind.startsWith("memory."));
    expect(memoryEvents.map((e: Json) => [e.memory_id, e.created_by, e.content])).toEqual([
      [crane, owner.address.toLowerCase(), "The harbour crane is serviced in April"],
      [cable.body.id, agent.address.toLowerCase(), "The crane's new cable arrived"],
    ]);
    expect(page.changes.every((e: Json) => e.namespace === "ops")).toBe(true);
    // Of the grant events, its own grant only.
    for (const e of page.changes.filter((e: Json) => e.kind.startsWith("grant."))) {
      expect(e.grant.grantee.toLowerCase()).toBe(agent.address.toLowerCase());
    }

    // The agent's own feed has none of it; a wallet without a grant reads nothing of the
    // owner's (as of a wallet nobody has seen: docs/sharing.md).
    expect((await changes(agent, {})).changes).toEqual([]);
    const stranger = await changes(newWallet(), { owner: owner.address });
    expect(stranger.changes).toEqual([]);
  });
});
