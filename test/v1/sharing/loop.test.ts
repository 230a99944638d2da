/**
 * The sharing loop over every declared operation (read from the served /openapi.json, so a
 * new route cannot skip it). With `?owner=`:
 *   - an operation a grant opens (x-shared) answers a wallet without a grant, with a revoked
 *     grant, with a grant on another namespace, and one using a grant another wallet holds,
 *     exactly as it answers when the named owner is a wallet nobody has seen: the same status
 *     and body, so nothing of the owner shows;
 *   - a read grant serves every read and is a 403 for every write; a write grant serves both;
 *   - every other operation that needs a wallet is a 403, grant or not.
 * Nothing the refused calls sent changes the owner's memories, and no answer through a grant
 * shows the owner's internal user id.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, type Json, newWallet, request, type Wallet } from "../../helpers";
import { baseName, concrete, type DocOperation, EXAMPLE_BODIES, operationsOf } from "../operations";
import { as, comparable, grant, revoke } from "./fixtures";

const NS = "team";

let operations: DocOperation[];
let owner: Wallet;
let ids: { team: string; other: string; hidden: string; relation: string };
/** The owner's internal user id, which its own answers carry and shared ones must not. */
let ownerId: string;

/** What each shared operation is called with: its path's id, extra query and body. */
function callOf(op: DocOperation): { path: string; body?: Json } {
  const name = baseName(op);
  const path = concrete(op, { id: ids.team });
  const query: Record<string, string> = { searchMemoriesGet: "?q=bicycle" };
  const bodies: Record<string, Json> = {
    storeMemory: { content: "A shared note about the ferry timetable", namespace: NS },
    storeMemories: { memories: [{ content: "A shared note about the tram depot", namespace: NS }] },
    recall: { query: "bicycle" },
    search: { query: "bicycle" },
    buildContext: { query: "bicycle" },
    updateMemory: { importance: 0.9 },
    batchUpdateMemories: { updates: [{ id: ids.team, importance: 0.8 }] },
  };
  return {
    path: `${path}${query[name] ?? ""}`,
    body: op.body ? (bodies[name] ?? EXAMPLE_BODIES[name]?.(ids as never)) : undefined,
  };
}

const send = (w: Wallet, op: DocOperation, ownerAddress: string) => {
  const { path, body } = callOf(op);
  return w.call(op.method, as(path, ownerAddress), body);
};

beforeAll(async () => {
  const doc = (await request("GET", "/openapi.json")).body;
  operations = operationsOf(doc);
  owner = newWallet();
  const team = await owner.storeNew("Ada keeps her bicycle in the garden shed", { namespace: NS });
  const other = await owner.storeNew("The bicycle pump lives in the hallway", { namespace: NS });
  const hidden = await owner.storeNew("The bicycle lock code is 4711", { namespace: "private" });
  const rel = await owner.post(`/v1/memories/${team}/relations`, {
    target_id: other,
    relation_type: "related_to",
  });
  expect(rel.status).toBe(201);
  ids = { team, other, hidden, relation: rel.body.id };
  ownerId = (await owner.getMemory(team)).user_id;
  expect(ownerId).toBeTruthy();
});

describe("the sharing loop over every declared operation", () => {
  it("declares the read and write operations the issue names", () => {
    const shared = Object.fromEntries(
      operations.filter((op) => op.shared).map((op) => [`${op.method} ${op.path}`, op.shared]),
    );
    expect(shared).toMatchObject({
      "POST /v1/recall": "read",
      "POST /v1/search": "read",
      "GET /v1/memories": "read",
      "GET /v1/memories/{id}": "read",
      "POST /v1/context": "read",
      "GET /v1/memories/{id}/graph": "read",
      "GET /v1/export": "read",
      "GET /v1/suggested": "read",
      "POST /v1/store": "write",
      "POST /v1/store/batch": "write",
      "PATCH /v1/memories/{id}": "write",
      "DELETE /v1/memories/{id}": "write",
    });
    expect(shared["DELETE /v1/memories"]).toBeUndefined();
    expect(shared["POST /v1/grants"]).toBeUndefined();
  });

  it("answers a wallet without a usable grant as it answers for an owner nobody has seen", async () => {
    const holder = newWallet();
    const revoked = newWallet();
    const elsewhere = newWallet();
    await grant(owner, holder, NS, "write");
    await grant(owner, revoked, NS, "write");
    await revoke(owner, revoked, NS);
    await grant(owner, elsewhere, "elsewhere", "write");
    const refused: Array<[string, Wallet]> = [
      ["no grant", newWallet()],
      ["a revoked grant", revoked],
      ["a grant on another namespace", elsewhere],
      // The grant is the holder's: another wallet naming the same owner gets nothing of it.
      ["another wallet's grant", newWallet()],
    ];
    const nobody = privateKeyToAccount(generatePrivateKey()).address;
    const shared = operations.filter((op) => op.shared);
    expect(shared.length).toBeGreaterThanOrEqual(16);
    for (const op of shared) {
      const baseline = await send(newWallet(), op, nobody);
      expect(baseline.status, `${op.method} ${op.path}`).toBeLessThan(500);
      for (const [label, w] of refused) {
        const res = await send(w, op, owner.address);
        const what = `${op.method} ${op.path} with ${label}: ${JSON.stringify(res.body)}`;
        expect(res.status, what).toBe(baseline.status);
        expect(comparable(res.body), what).toEqual(comparable(baseline.body));
      }
    }
    const mine = await owner.getMemory(ids.team);
    expect(mine).toMatchObject({ content: "Ada keeps her bicycle in the garden shed" });
    expect(mine.importance).toBe(0.5);
    expect((await owner.getOk("/v1/memories/count")).count).toBe(3);
  }, 120_000);

  it("serves every read to a read grant and refuses every write with a 403", async () => {
    const reader = newWallet();
    await grant(owner, reader, NS, "read");
    for (const op of operations.filter((o) => o.shared)) {
      const res = await send(reader, op, owner.address);
      const what = `${op.method} ${op.path}: ${JSON.stringify(res.body)}`;
      if (op.shared === "read") {
        expect(res.status, what).toBe(200);
        expect(JSON.stringify(res.body), what).not.toContain(ids.hidden);
        expect(JSON.stringify(res.body), what).not.toContain("4711");
        expect(JSON.stringify(res.body), what).not.toContain(ownerId);
      } else if (op.operationId.startsWith("batchUpdateMemories")) {
        // Batch update reports each item: the read-only one fails with its 403.
        expect(res.status, what).toBe(200);
        expect(res.body.errors, what).toMatchObject([{ id: ids.team, status: 403 }]);
      } else {
        expectError(res, 403, "FORBIDDEN");
      }
    }
    expect((await owner.getMemory(ids.team)).importance).toBe(0.5);
    expect((await owner.getOk("/v1/memories/count")).count).toBe(3);
  }, 60_000);

  it("serves every read and write to a write grant", async () => {
    const writer = newWallet();
    await grant(owner, writer, NS, "write");
    // Deletes last: the memory is gone after them.
    const shared = operations
      .filter((o) => o.shared)
      .sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    for (const op of shared) {
      const res = await send(writer, op, owner.address);
      const what = `${op.method} ${op.path}: ${JSON.stringify(res.body)}`;
      expect(res.status, what).toBeLessThan(300);
      expect(JSON.stringify(res.body), what).not.toContain(ids.hidden);
      expect(JSON.stringify(res.body), what).not.toContain(ownerId);
    }
    const after = await owner.get(`/v1/memories/${ids.team}`);
    expect(after.status).toBe(404);
  }, 60_000);

  it("answers 403 for ?owner= on every operation a grant does not open", async () => {
    const writer = newWallet();
    await grant(owner, writer, NS, "write");
    const before = await owner.getOk("/v1/export");
    const ownerOnly = operations.filter((op) => op.auth === "wallet" && !op.shared);
    expect(ownerOnly.length).toBeGreaterThan(15);
    for (const op of ownerOnly) {
      const body = op.body ? EXAMPLE_BODIES[baseName(op)]?.(ids as never) : undefined;
      const path = concrete(op, { id: ids.team, relationId: ids.relation });
      const res = await writer.call(op.method, as(path, owner), body);
      expect(res.status, `${op.method} ${op.path}: ${JSON.stringify(res.body)}`).toBe(403);
    }
    expect(await owner.getOk("/v1/export")).toEqual(before);
  }, 60_000);
});
