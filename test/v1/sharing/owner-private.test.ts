/**
 * What stays the owner's when a grantee reads and writes through `?owner=` (docs/sharing.md):
 *   - its access signals: a grantee's recalls and contexts leave `access_count` and
 *     `accessed_at` as they are, so they change neither the owner's ranking nor its
 *     hot, fresh or stale suggestions; the owner's own recall still counts;
 *   - its internal id: no shared answer carries the owner's `user_id`, while the owner's own
 *     answers keep it.
 */
import { describe, expect, it } from "vitest";
import { callTool, ids, type Json, sleep, type Wallet } from "../../helpers";
import { as, sharedMemory } from "./fixtures";

/** A tool call through the grant, as the MCP tools send `owner`; its structured result. */
async function tool(w: Wallet, owner: Wallet, name: string, args: object): Promise<Json> {
  const res = await callTool(w, name, { owner: owner.address, ...args });
  expect(res.status).toBe(200);
  const { result } = res.body;
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return result;
}

describe("a grantee's reads and the owner's access signals", () => {
  it("leave access_count and accessed_at as they are; the owner's own recall raises them", async () => {
    const [owner, reader, id] = await sharedMemory("ops", "read", {
      content: "The lighthouse lamp is replaced every spring",
    });
    const before = await owner.getMemory(id);
    expect(before.access_count).toBe(0);

    // Six shared reads that count accesses for the owner (five make a memory "hot").
    for (let i = 0; i < 3; i++) {
      const recalled = await reader.post(as("/v1/recall", owner), { query: "lighthouse lamp" });
      expect(recalled.status).toBe(200);
      expect(ids(recalled.body)).toEqual([id]);
    }
    const context = await reader.post(as("/v1/context", owner), { query: "lighthouse lamp" });
    expect(context.status).toBe(200);
    expect(context.body.memories.map((m: Json) => m.id)).toEqual([id]);
    const viaTool = await tool(reader, owner, "memoclaw_recall", { query: "lighthouse lamp" });
    expect(ids(viaTool.structuredContent)).toEqual([id]);
    await tool(reader, owner, "memoclaw_context", { query: "lighthouse lamp" });
    // And the reads that never count: search, list, get, suggested.
    expect((await reader.post(as("/v1/search", owner), { query: "lighthouse" })).status).toBe(200);
    expect((await reader.get(as("/v1/memories", owner))).status).toBe(200);
    expect((await reader.get(as(`/v1/memories/${id}`, owner))).status).toBe(200);
    expect((await reader.get(as("/v1/suggested", owner))).status).toBe(200);

    // Time for an access counted after a response to land, had one been counted.
    await sleep(300);
    const afterShared = await owner.getMemory(id);
    expect(afterShared.access_count).toBe(0);
    expect(afterShared.accessed_at).toBe(before.accessed_at);
    // The owner's suggestions still see a fresh, never-read memory, not a hot one.
    const suggested = await owner.getOk("/v1/suggested");
    expect(suggested.suggested.map((s: Json) => [s.id, s.category])).toEqual([[id, "fresh"]]);

    // The owner's own recall counts, as before; and it is the only one counted.
    const own = await owner.post("/v1/recall", { query: "lighthouse lamp" });
    expect(ids(own.body)).toEqual([id]);
    const counted = await owner.memoryAfterAccesses(id, 1);
    expect(counted.access_count).toBe(1);
    expect(Date.parse(counted.accessed_at)).toBeGreaterThan(Date.parse(before.accessed_at));
    await sleep(300);
    expect((await owner.getMemory(id)).access_count).toBe(1);
  });
});

describe("a grantee's answers and the owner's internal id", () => {
  it("carry no user_id of the owner, over HTTP and MCP; the owner's own answers keep it", async () => {
    const [owner, writer, id] = await sharedMemory("ops", "write", {
      content: "The ferry to the island leaves at seven",
      metadata: { user_id: "ticket-desk" },
    });
    const mine = await owner.getMemory(id);
    const ownerId: string = mine.user_id;
    expect(ownerId).toMatch(/^[0-9a-f-]{36}$/);

    const answers: Array<[string, Json]> = [];
    const keep = (what: string, res: { status: number; body: Json }) => {
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      answers.push([what, res.body]);
      return res.body;
    };
    const shared = (path: string) => as(path, owner);
    const got = keep("get", await writer.get(shared(`/v1/memories/${id}`)));
    keep("list", await writer.get(shared("/v1/memories")));
    keep("search", await writer.post(shared("/v1/search"), { query: "ferry" }));
    keep("search (GET)", await writer.get(shared("/v1/memories/search?q=ferry")));
    keep("recall", await writer.post(shared("/v1/recall"), { query: "ferry to the island" }));
    keep("export", await writer.get(shared("/v1/export")));
    keep("history", await writer.get(shared(`/v1/memories/${id}/history`)));
    keep("suggested", await writer.get(shared("/v1/suggested")));
    keep(
      "store",
      await writer.post(shared("/v1/store"), {
        content: "The island's harbour office opens at eight",
        namespace: "ops",
      }),
    );
    keep(
      "store batch",
      await writer.post(shared("/v1/store/batch"), {
        memories: [{ content: "The ferry's cafe sells only coffee", namespace: "ops" }],
      }),
    );
    keep("PATCH", await writer.patch(shared(`/v1/memories/${id}`), { importance: 0.7 }));
    keep(
      "batch PATCH",
      await writer.patch(shared("/v1/memories/batch"), { updates: [{ id, importance: 0.8 }] }),
    );
    for (const [name, args] of [
      ["memoclaw_get", { id }],
      ["memoclaw_list", {}],
      ["memoclaw_search", { query: "ferry" }],
      ["memoclaw_export", {}],
      ["memoclaw_store", { content: "The ferry's captain is called Ines", namespace: "ops" }],
      ["memoclaw_update", { id, importance: 0.6 }],
    ] as const) {
      answers.push([name, await tool(writer, owner, name, args)]);
    }

    for (const [what, body] of answers) {
      expect(JSON.stringify(body), what).not.toContain(ownerId);
    }
    // Only the owner's id goes: a `user_id` of the memory's own metadata stays.
    expect(got).not.toHaveProperty("user_id");
    expect(got.metadata).toEqual({ user_id: "ticket-desk" });
    expect(got).toMatchObject({ id, content: "The ferry to the island leaves at seven" });

    // The owner's own answers, over HTTP and MCP, keep the field as they always had it.
    expect((await owner.getMemory(id)).user_id).toBe(ownerId);
    const list = await owner.getOk("/v1/memories");
    expect(list.memories.map((m: Json) => m.user_id)).toEqual(list.memories.map(() => ownerId));
    const ownSearch = await owner.post("/v1/search", { query: "ferry" });
    expect(ownSearch.body.memories[0].user_id).toBe(ownerId);
    const ownExport = await owner.getOk("/v1/export");
    expect(new Set(ownExport.memories.map((m: Json) => m.user_id))).toEqual(new Set([ownerId]));
    const ownTool = await callTool(owner, "memoclaw_get", { id });
    expect(ownTool.body.result.structuredContent.user_id).toBe(ownerId);
    // Naming itself as owner is the owner's own request, id and all.
    expect((await owner.getOk(as(`/v1/memories/${id}`, owner))).user_id).toBe(ownerId);
  });
});
