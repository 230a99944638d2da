/**
 * GET /v1/changes (docs/changes.md): every change is an event, in commit order, with its
 * kind, memory, namespace, writer and time; cursors resume; a grantee sees its namespaces only.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userIdOf, withDb } from "../../db";
import {
  expectError,
  expectStatus,
  type Json,
  newWallet,
  request,
  sleep,
  uniqueText,
  type Wallet,
} from "../../helpers";
import { as, grant, revoke } from "../sharing/fixtures";

async function feed(w: Wallet, query = ""): Promise<Json> {
  return expectStatus(await w.get(`/v1/changes${query ? `?${query}` : ""}`), 200);
}

const kinds = (page: Json) => page.changes.map((e: Json) => e.kind);

describe("GET /v1/changes", () => {
  it("tells every change of a memory, in order, with its writer", async () => {
    const w = newWallet();
    const a = await w.storeNew(uniqueText("the harbour opens at six"));
    const b = await w.storeNew(uniqueText("the ferry leaves at noon"));
    expectStatus(await w.patch(`/v1/memories/${a}`, { importance: 0.9 }), 200);
    expectStatus(await w.post("/v1/memories/core", { memory_id: a }), 200);
    expectStatus(await w.del(`/v1/memories/core/${a}`), 200);
    const rel = await w.relate(b, a, "related_to");
    expectStatus(await w.del(`/v1/memories/${b}/relations/${rel.id}`), 200);
    expectStatus(await w.del(`/v1/memories/${b}`), 200);

    const page = await feed(w);
    expect(kinds(page)).toEqual([
      "memory.stored",
      "memory.stored",
      "memory.updated",
      "memory.pinned",
      "memory.unpinned",
      "relation.added",
      "relation.removed",
      "memory.deleted",
    ]);
    const [first, , updated, , , added] = page.changes;
    expect(first.memory_id).toBe(a);
    expect(first.created_by).toBe(w.address.toLowerCase());
    expect(first.namespace).toBe("default");
    expect(updated.fields).toEqual(["importance"]);
    expect(added.relation).toMatchObject({ source_id: b, target_id: a, type: "related_to" });
    expect(first.content).toBeUndefined();
    // Cursors count up from 1 without a gap, and the page ends at the last one.
    expect(page.changes.map((e: Json) => Number(e.cursor))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(page.next_cursor).toBe("8");
    expect(page.has_more).toBe(false);
    expect(new Set(page.changes.map((e: Json) => e.id)).size).toBe(8);
  });

  it("pages with limit and resumes after a cursor; since=now starts at the end", async () => {
    const w = newWallet();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await w.storeNew(uniqueText(`note ${i} on the tides`)));
    const one = await feed(w, "limit=2");
    expect(one.changes.map((e: Json) => e.memory_id)).toEqual(ids.slice(0, 2));
    expect(one.has_more).toBe(true);
    const two = await feed(w, `since=${one.next_cursor}&limit=2`);
    expect(two.changes.map((e: Json) => e.memory_id)).toEqual(ids.slice(2, 4));
    const three = await feed(w, `since=${two.next_cursor}&limit=2`);
    expect(three.changes.map((e: Json) => e.memory_id)).toEqual(ids.slice(4));
    expect(three.has_more).toBe(false);
    const end = await feed(w, "since=now");
    expect(end.changes).toEqual([]);
    expect(end.next_cursor).toBe("5");
    const later = await w.storeNew(uniqueText("a later note"));
    const after = await feed(w, `since=${end.next_cursor}`);
    expect(after.changes.map((e: Json) => e.memory_id)).toEqual([later]);
  });

  it("filters by namespace and kinds, and carries content on request", async () => {
    const w = newWallet();
    const text = uniqueText("the lighthouse keeper's log");
    const a = await w.storeNew(text, { namespace: "logs" });
    await w.storeNew(uniqueText("unrelated"), { namespace: "other" });
    expectStatus(await w.del(`/v1/memories/${a}`), 200);
    const logs = await feed(w, "namespace=logs&include_content=true");
    expect(kinds(logs)).toEqual(["memory.stored", "memory.deleted"]);
    expect(logs.changes[0].content).toBe(text);
    // The filter read everything up to the end: the next read starts there.
    expect(logs.next_cursor).toBe("3");
    const deletes = await feed(w, "kinds=memory.deleted");
    expect(deletes.changes.map((e: Json) => e.memory_id)).toEqual([a]);
  });

  it("tells a merge, a replacement and an expiry", async () => {
    const w = newWallet();
    const text = uniqueText("we moved the standup to nine");
    const a = await w.storeNew(text);
    const merged = expectStatus(await w.post("/v1/store", { content: text }), 201);
    expect(merged.deduplicated).toBe(true);
    const b = await w.storeNew(uniqueText("the standup is at ten now"), { supersedes: [a] });
    const c = await w.storeNew(uniqueText("a note that expires"), {
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await withDb((db) =>
      db.execute(sql`UPDATE memories SET expires_at = now() - interval '1 second' WHERE id = ${c}`),
    );
    const page = await feed(w);
    expect(kinds(page)).toEqual([
      "memory.stored",
      "memory.merged",
      "memory.stored",
      "relation.added",
      "memory.replaced",
      "memory.stored",
      // The test's own UPDATE of expires_at, standing in for the passing of time.
      "memory.updated",
      "memory.expired",
    ]);
    expect(page.changes[4]).toMatchObject({ memory_id: a, superseded_by: b });
    expect(page.changes[7].memory_id).toBe(c);
    expect(page.changes[7].expires_at).toMatch(/^\d{4}-/);
    // An expiry is told once, however many reads follow.
    const again = await feed(w, `since=${page.next_cursor}`);
    expect(again.changes).toEqual([]);
  });

  it("shows nothing of another wallet's feed", async () => {
    const owner = newWallet();
    const other = newWallet();
    await owner.storeNew(uniqueText("a private plan"));
    expect((await feed(other)).changes).toEqual([]);
    const through = await other.get(`/v1/changes?owner=${owner.address}`);
    if (through.status === 200) expect(through.body.changes).toEqual([]);
    else expect([403, 404]).toContain(through.status);
  });

  it("lets a grantee follow the granted namespace only, while the grant lasts", async () => {
    const owner = newWallet();
    const grantee = newWallet();
    const outsider = newWallet();
    await owner.storeNew(uniqueText("private budget"), { namespace: "private" });
    await grant(owner, grantee, "shared", "write");
    await grant(owner, outsider, "shared", "read");
    const mine = await owner.storeNew(uniqueText("the shared roadmap"), { namespace: "shared" });
    const written = expectStatus(
      await grantee.post(as("/v1/store", owner), {
        content: uniqueText("grantee's note on the roadmap"),
        namespace: "shared",
      }),
      201,
    );
    const page = await feed(grantee, `owner=${owner.address}&include_content=true`);
    // Grants are the owner's events: a grantee sees none, its own included (it has
    // GET /v1/grants/received).
    expect(kinds(page)).toEqual(["memory.stored", "memory.stored"]);
    for (const e of page.changes) expect(e.namespace).toBe("shared");
    expect(page.changes[0].memory_id).toBe(mine);
    expect(page.changes[1]).toMatchObject({
      memory_id: written.id,
      created_by: grantee.address.toLowerCase(),
    });
    // The owner sees the grants, and the grantee's write as the grantee's.
    const own = await feed(owner, "namespace=shared");
    expect(kinds(own).slice(0, 2)).toEqual(["grant.given", "grant.given"]);
    expect(own.changes.at(-1).created_by).toBe(grantee.address.toLowerCase());

    await revoke(owner, grantee, "shared");
    await owner.storeNew(uniqueText("after the revocation"), { namespace: "shared" });
    const after = await grantee.get(`/v1/changes?owner=${owner.address}&since=${page.next_cursor}`);
    if (after.status === 200) expect(after.body.changes).toEqual([]);
    else expect([403, 404]).toContain(after.status);
  });

  it("holds a read with wait until a change arrives", async () => {
    const w = newWallet();
    const start = await feed(w, "since=now");
    const began = Date.now();
    const waiting = w.get(`/v1/changes?since=${start.next_cursor}&wait=20`);
    await sleep(300);
    const id = await w.storeNew(uniqueText("told while waiting"));
    const res = expectStatus(await waiting, 200);
    expect(res.changes.map((e: Json) => e.memory_id)).toEqual([id]);
    expect(Date.now() - began).toBeLessThan(15_000);
    // With nothing to tell, wait answers empty at its end.
    const quiet = await feed(w, `since=${res.next_cursor}&wait=0.3`);
    expect(quiet.changes).toEqual([]);
  });

  it("refuses a bad query and an expired cursor", async () => {
    const w = newWallet();
    await w.storeNew(uniqueText("one"));
    await w.storeNew(uniqueText("two"));
    expectError(await w.get("/v1/changes?since=abc"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/changes?since=99"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/changes?kinds=memory.exploded"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/changes?wait=-1"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/changes?limit=0"), 422, "VALIDATION_ERROR");
    expectStatus(await w.get("/v1/changes?limit=5000&wait=0"), 200);
    // Past retention: the oldest event is pruned on the next read, and its cursor is gone.
    const user = await withDb((db) => userIdOf(db, w));
    await withDb((db) =>
      db.execute(
        sql`UPDATE memory_events SET at = now() - interval '31 days' WHERE user_id = ${user}::uuid AND seq = 1`,
      ),
    );
    const page = await feed(w, "since=1");
    expect(page.changes.map((e: Json) => e.cursor)).toEqual(["2"]);
    const gone = expectError(await w.get("/v1/changes?since=0"), 410, "GONE");
    expect(gone.details.oldest_cursor).toBe("1");
    const fromStart = await feed(w);
    expect(fromStart.changes.map((e: Json) => e.cursor)).toEqual(["2"]);
  });

  it("needs a wallet", async () => {
    expectError(await request("GET", "/v1/changes"), 401, "UNAUTHORIZED");
  });
});
