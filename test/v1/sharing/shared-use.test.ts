/**
 * Working in a shared namespace: what a grant opens and what it leaves shut, who is written
 * down as the writer, who pays, and a revocation holding from the very next request.
 */
import { describe, expect, it } from "vitest";
import { expectError, expectStatus, ids, type Json, newWallet } from "../../helpers";
import { as, grant, revoke, sharedMemory } from "./fixtures";

describe("a shared namespace", () => {
  it("shows a grantee only the granted namespaces, whatever its filters", async () => {
    const owner = newWallet();
    const agent = newWallet();
    const team = await owner.storeNew("The team meets on Tuesdays", { namespace: "team" });
    const notes = await owner.storeNew("The team budget is tight", { namespace: "notes" });
    await owner.storeNew("The team lead is on leave in May", { namespace: "private" });
    await grant(owner, agent, "team", "read");
    await grant(owner, agent, "notes", "read");

    expect(ids(await agent.getOk(as("/v1/memories", owner))).sort()).toEqual([team, notes].sort());
    expect((await agent.getOk(as("/v1/memories", owner))).total).toBe(2);
    expect(ids(await agent.getOk(as("/v1/memories?namespace=notes", owner)))).toEqual([notes]);
    const shut = await agent.getOk(as("/v1/memories?namespace=private", owner));
    expect(shut).toMatchObject({ memories: [], total: 0 });
    expect((await agent.getOk(as("/v1/memories/count?namespace=private", owner))).count).toBe(0);
    expect((await agent.getOk(as("/v1/memories/count", owner))).count).toBe(2);
    const recalled = expectStatus(
      await agent.post(as("/v1/recall", owner), { query: "team", limit: 10 }),
      200,
    );
    expect(ids(recalled).sort()).toEqual([team, notes].sort());
    const searched = expectStatus(
      await agent.post(as("/v1/search", owner), { query: "team" }),
      200,
    );
    expect(searched.total).toBe(2);
    const exported = await agent.getOk(as("/v1/export?namespace=private", owner));
    expect(exported.count).toBe(0);
  });

  it("walks a graph and counts relations only through granted namespaces", async () => {
    const owner = newWallet();
    const agent = newWallet();
    const root = await owner.storeNew("Project Falcon ships in June", { namespace: "team" });
    const near = await owner.storeNew("Falcon's QA starts in May", { namespace: "team" });
    const secret = await owner.storeNew("Falcon's budget is 2 million", { namespace: "board" });
    await owner.relate(root, near, "related_to");
    await owner.relate(root, secret, "supports");
    await grant(owner, agent, "team", "read");

    const graph = await agent.getOk(as(`/v1/memories/${root}/graph`, owner));
    expect(graph.nodes.map((n: Json) => n.id)).toEqual([near]);
    expect(JSON.stringify(graph)).not.toContain(secret);
    const recalled = expectStatus(
      await agent.post(as("/v1/recall", owner), {
        query: "Falcon ships",
        include_relations: true,
      }),
      200,
    );
    const first = recalled.memories.find((m: Json) => m.id === root);
    expect(first.relations.map((r: Json) => r.target_id)).toEqual([near]);
    expect(first._signals.relation_count).toBe(1);
    expect(JSON.stringify(recalled)).not.toContain(secret);
    // The owner sees both relations.
    const own = expectStatus(await owner.post("/v1/recall", { query: "Falcon ships" }), 200);
    expect(own.memories.find((m: Json) => m.id === root)._signals.relation_count).toBe(2);
  });

  it("writes through a write grant, and records the writer", async () => {
    const [owner, agent, mine] = await sharedMemory("team", "write", {
      content: "The release checklist lives in the wiki",
    });
    const stored = expectStatus(
      await agent.post(as("/v1/store", owner), {
        content: "The staging server was rebooted on Monday",
        namespace: "team",
      }),
      201,
    );
    const theirs = await owner.getMemory(stored.id);
    expect(theirs).toMatchObject({ namespace: "team", created_by: agent.address.toLowerCase() });
    expect((await owner.getMemory(mine)).created_by).toBe(owner.address.toLowerCase());
    // The agent's own memories are untouched: the write went to the owner.
    expect((await agent.getOk("/v1/memories")).total).toBe(0);

    const patched = expectStatus(
      await agent.patch(as(`/v1/memories/${mine}`, owner), { content: "The checklist moved" }),
      200,
    );
    expect(patched).toMatchObject({
      content: "The checklist moved",
      created_by: owner.address.toLowerCase(),
    });
    const history = await owner.getOk(`/v1/memories/${mine}/history`);
    expect(history.history).toMatchObject([
      { changes: { content: "The checklist moved" }, created_by: agent.address.toLowerCase() },
    ]);
    const seen = await agent.getOk(as(`/v1/memories/${mine}/history`, owner));
    expect(seen.history).toEqual(history.history);
    const listed = await owner.getOk("/v1/memories");
    expect(listed.memories.map((m: Json) => m.created_by).sort()).toEqual(
      [owner.address, agent.address].map((a) => a.toLowerCase()).sort(),
    );
    const searched = expectStatus(await owner.post("/v1/search", { query: "staging" }), 200);
    expect(searched.memories[0].created_by).toBe(agent.address.toLowerCase());
    const recalled = expectStatus(await owner.post("/v1/recall", { query: "staging server" }), 200);
    expect(recalled.memories[0].created_by).toBe(agent.address.toLowerCase());

    expect((await agent.del(as(`/v1/memories/${stored.id}`, owner))).status).toBe(200);
    expect((await owner.get(`/v1/memories/${stored.id}`)).status).toBe(404);
  });

  it("keeps a grantee's writes inside the namespaces it may write", async () => {
    const owner = newWallet();
    const agent = newWallet();
    const team = await owner.storeNew("The office plants need water", { namespace: "team" });
    const board = await owner.storeNew("Board minutes from March", { namespace: "board" });
    const locked = await owner.storeNew("The charter is final", {
      namespace: "team",
      immutable: true,
    });
    await grant(owner, agent, "team", "write");
    await grant(owner, agent, "board", "read");

    // Into a namespace without a grant: the 404 any missing thing gets; read-only: 403.
    const elsewhere = await agent.post(as("/v1/store", owner), {
      content: "x y z",
      namespace: "hr",
    });
    expectError(elsewhere, 404, "NOT_FOUND");
    const readOnly = await agent.post(as("/v1/store", owner), {
      content: "A note for the board",
      namespace: "board",
    });
    expectError(readOnly, 403, "FORBIDDEN");
    const mixed = await agent.post(as("/v1/store/batch", owner), {
      memories: [
        { content: "A team note", namespace: "team" },
        { content: "A board note", namespace: "board" },
      ],
    });
    expectError(mixed, 403, "FORBIDDEN");
    // Nothing of the refused batch was written, not even its team item.
    expect((await owner.getOk("/v1/memories/count?namespace=team")).count).toBe(2);
    // The store's default namespace is `default`, which was not shared.
    expectError(await agent.post(as("/v1/store", owner), { content: "hello" }), 404, "NOT_FOUND");

    expectError(
      await agent.patch(as(`/v1/memories/${board}`, owner), { importance: 1 }),
      403,
      "FORBIDDEN",
    );
    expectError(await agent.del(as(`/v1/memories/${board}`, owner)), 403, "FORBIDDEN");
    // Moving a memory out to a namespace the grant does not let it write.
    const moved = await agent.patch(as(`/v1/memories/${team}`, owner), { namespace: "board" });
    expectError(moved, 403, "FORBIDDEN");
    const away = await agent.patch(as(`/v1/memories/${team}`, owner), { namespace: "hr" });
    expectError(away, 403, "FORBIDDEN");
    // Immutable stays immutable.
    expectError(
      await agent.patch(as(`/v1/memories/${locked}`, owner), { importance: 1 }),
      409,
      "CONFLICT",
    );
    expectError(await agent.del(as(`/v1/memories/${locked}`, owner)), 409, "CONFLICT");
    // Only the owner deletes in bulk.
    expectError(await agent.del(as("/v1/memories", owner), { ids: [team] }), 403, "FORBIDDEN");

    expect(await owner.getMemory(team)).toMatchObject({ namespace: "team", importance: 0.5 });
    expect(await owner.getMemory(board)).toMatchObject({ namespace: "board", importance: 0.5 });
    expect((await owner.getOk("/v1/memories/count")).count).toBe(3);
  });

  it("stops a revoked grant at the next request", async () => {
    const [owner, agent, id] = await sharedMemory("ops", "write", {
      content: "The deploy key rotates monthly",
    });
    expect((await agent.get(as(`/v1/memories/${id}`, owner))).status).toBe(200);
    await revoke(owner, agent, "ops");
    expectError(await agent.get(as(`/v1/memories/${id}`, owner)), 404, "NOT_FOUND");
    expect((await agent.getOk(as("/v1/memories", owner))).total).toBe(0);
    const store = await agent.post(as("/v1/store", owner), { content: "late", namespace: "ops" });
    expectError(store, 404, "NOT_FOUND");
    // Lowered to read: reads still work, writes are refused at once.
    await grant(owner, agent, "ops", "write");
    await grant(owner, agent, "ops", "read");
    expect((await agent.get(as(`/v1/memories/${id}`, owner))).status).toBe(200);
    expectError(await agent.del(as(`/v1/memories/${id}`, owner)), 403, "FORBIDDEN");
  });

  it("charges the caller's allowance, never the owner's", async () => {
    const [owner, agent] = await sharedMemory("home", "write", {
      content: "Coffee beans are in the top cupboard",
    });
    const before = await owner.getOk("/v1/free-tier/status");
    const agentBefore = await agent.getOk("/v1/free-tier/status");
    expectStatus(await agent.post(as("/v1/recall", owner), { query: "coffee" }), 200);
    expectStatus(
      await agent.post(as("/v1/store", owner), { content: "Tea is beside it", namespace: "home" }),
      201,
    );
    expect(await owner.getOk("/v1/free-tier/status")).toEqual(before);
    const agentAfter = await agent.getOk("/v1/free-tier/status");
    expect(agentAfter.free_tier_used).toBe(agentBefore.free_tier_used + 2);
  });
});
