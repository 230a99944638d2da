/**
 * GET /v1/memories filters (tags, scopes, type, pinned, dates, metadata), sorting, and the
 * memories no list shows: deleted, expired, another wallet's.
 */
import { describe, expect, it } from "vitest";
import { expireNow } from "../../../db";
import { expectError, ids, newWallet, sleep, sorted, uniqueText } from "../../../helpers";
import { list } from "../fixtures";

describe("GET /v1/memories filters", () => {
  it("tags: comma-separated, matches memories having any of them", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), { metadata: { tags: ["red", "blue"] } });
    const b = await w.store(uniqueText("b"), { tags: ["green"] });
    const c = await w.store(uniqueText("c"), { tags: ["blue", "yellow"] });
    await w.store(uniqueText("d"));

    expect(sorted(ids(await list(w, "tags=blue")))).toEqual(sorted([a, c]));
    const anyOf = await list(w, "tags=red,green");
    expect(sorted(ids(anyOf))).toEqual(sorted([a, b]));
    expect(anyOf.total).toBe(2);
    expect(sorted(ids(await list(w, "tags=green,%20yellow")))).toEqual(sorted([b, c]));
    const none = await list(w, "tags=purple");
    expect(none.memories).toEqual([]);
    expect(none.total).toBe(0);
  });

  it("namespace, session_id, agent_id and memory_type", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), {
      namespace: "ns-a",
      session_id: "s1",
      agent_id: "bot-1",
      memory_type: "preference",
    });
    const b = await w.store(uniqueText("b"), {
      namespace: "ns-b",
      session_id: "s1",
      agent_id: "bot-2",
      memory_type: "decision",
    });
    const c = await w.store(uniqueText("c"), { session_id: "s2", memory_type: "preference" });

    expect(ids(await list(w, "namespace=ns-a"))).toEqual([a]);
    expect(ids(await list(w, "namespace=default"))).toEqual([c]);
    expect(sorted(ids(await list(w, "session_id=s1")))).toEqual(sorted([a, b]));
    expect(ids(await list(w, "agent_id=bot-2"))).toEqual([b]);
    expect(sorted(ids(await list(w, "memory_type=preference")))).toEqual(sorted([a, c]));
    const combined = await list(w, "session_id=s1&memory_type=preference");
    expect(ids(combined)).toEqual([a]);
    expect(combined.total).toBe(1);
    expect((await list(w, "namespace=nothing-here")).total).toBe(0);

    const bad = await w.get("/v1/memories?memory_type=bogus");
    expectError(bad, 422, "VALIDATION_ERROR");
  });

  it("pinned=true/false and immutable", async () => {
    const w = newWallet();
    const pinned = await w.store(uniqueText("pinned"), { pinned: true });
    const locked = await w.store(uniqueText("locked"), { immutable: true });
    const plain = await w.store(uniqueText("plain"));

    expect(ids(await list(w, "pinned=true"))).toEqual([pinned]);
    expect(sorted(ids(await list(w, "pinned=false")))).toEqual(sorted([locked, plain]));
    expect(ids(await list(w, "immutable=true"))).toEqual([locked]);
    expect(sorted(ids(await list(w, "immutable=false")))).toEqual(sorted([pinned, plain]));
    expect(ids(await list(w, "pinned=false&immutable=false"))).toEqual([plain]);

    expectError(await w.get("/v1/memories?pinned=yes"), 422, "VALIDATION_ERROR");
  });

  it("after/before and since/until bound created_at", async () => {
    const w = newWallet();
    const older = await w.store(uniqueText("older"));
    await sleep(60);
    const newer = await w.store(uniqueText("newer"));
    const tOld = Date.parse((await w.get(`/v1/memories/${older}`)).body.created_at);
    const tNew = Date.parse((await w.get(`/v1/memories/${newer}`)).body.created_at);
    expect(tNew - tOld).toBeGreaterThanOrEqual(30);
    const mid = encodeURIComponent(new Date((tOld + tNew) / 2).toISOString());
    const early = encodeURIComponent(new Date(tOld - 60_000).toISOString());
    const late = encodeURIComponent(new Date(tNew + 60_000).toISOString());

    expect(ids(await list(w, `after=${mid}`))).toEqual([newer]);
    expect(ids(await list(w, `since=${mid}`))).toEqual([newer]);
    expect(ids(await list(w, `before=${mid}`))).toEqual([older]);
    expect(ids(await list(w, `until=${mid}`))).toEqual([older]);
    expect(ids(await list(w, `after=${early}&before=${late}`))).toEqual([newer, older]);
    expect(ids(await list(w, `since=${early}&until=${mid}`))).toEqual([older]);
    expect((await list(w, `after=${late}`)).total).toBe(0);

    // Bounds are inclusive: a memory's own created_at (as shown) selects it from both sides.
    const own = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    expect(ids(await list(w, `before=${own(tOld)}`))).toEqual([older]);
    expect(ids(await list(w, `until=${own(tOld)}`))).toEqual([older]);
    expect(ids(await list(w, `after=${own(tNew)}`))).toEqual([newer]);
    expect(ids(await list(w, `after=${own(tOld)}&before=${own(tOld)}`))).toEqual([older]);

    expectError(await w.get("/v1/memories?after=yesterday"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/memories?until=2024-13-45"), 422, "VALIDATION_ERROR");
  });

  it("metadata: JSON containment; invalid JSON is 422", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), {
      metadata: { project: "apollo", owner: { team: "core", size: 3 } },
    });
    const b = await w.store(uniqueText("b"), { metadata: { project: "apollo", draft: true } });
    await w.store(uniqueText("c"), { metadata: { project: "gemini" } });

    const q = (v: unknown) => `metadata=${encodeURIComponent(JSON.stringify(v))}`;
    expect(sorted(ids(await list(w, q({ project: "apollo" }))))).toEqual(sorted([a, b]));
    expect(ids(await list(w, q({ project: "apollo", draft: true })))).toEqual([b]);
    expect(ids(await list(w, q({ owner: { team: "core" } })))).toEqual([a]);
    expect((await list(w, q({ project: "zeus" }))).total).toBe(0);
    expect((await list(w, q({}))).total).toBe(3);

    // Tags are shown inside metadata, so containment on metadata.tags matches them too.
    const tagged = await w.store(uniqueText("tagged"), {
      tags: ["blue", "green"],
      metadata: { project: "apollo" },
    });
    expect(ids(await list(w, q({ tags: ["blue"] })))).toEqual([tagged]);
    expect(ids(await list(w, q({ tags: ["green", "blue"], project: "apollo" })))).toEqual([tagged]);
    expect((await list(w, q({ tags: ["blue", "red"] }))).total).toBe(0);
    expect((await list(w, q({ tags: "blue" }))).total).toBe(0);
    expect((await list(w, q({ tags: [] }))).total).toBe(4);

    for (const bad of ["%7Bnot-json", "%5B1%2C2%5D", "42"]) {
      const res = await w.get(`/v1/memories?metadata=${bad}`);
      expectError(res, 422, "VALIDATION_ERROR");
    }
  });

  it("sort and order", async () => {
    const w = newWallet();
    const mid = await w.store(uniqueText("mid"), { importance: 0.5 });
    await sleep(10);
    const high = await w.store(uniqueText("high"), { importance: 0.9 });
    await sleep(10);
    const low = await w.store(uniqueText("low"), { importance: 0.1 });

    expect(ids(await list(w, "sort=importance&order=desc"))).toEqual([high, mid, low]);
    expect(ids(await list(w, "sort=importance&order=asc"))).toEqual([low, mid, high]);
    expect(ids(await list(w, "sort=created_at&order=asc"))).toEqual([mid, high, low]);
    expect(ids(await list(w, "order=asc"))).toEqual([mid, high, low]);
    expect(ids(await list(w, "sort=created_at"))).toEqual([low, high, mid]);

    expectError(await w.get("/v1/memories?sort=content"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/memories?order=sideways"), 422, "VALIDATION_ERROR");
  });

  it("excludes soft-deleted memories from list and total", async () => {
    const w = newWallet();
    const keep = await w.store(uniqueText("keep"), { tags: ["t"] });
    const gone = await w.store(uniqueText("gone"), { tags: ["t"] });
    expect((await list(w)).total).toBe(2);
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const page = await list(w);
    expect(ids(page)).toEqual([keep]);
    expect(page.total).toBe(1);
    expect(ids(await list(w, "tags=t"))).toEqual([keep]);
  });

  it("excludes expired memories everywhere (list, get, count, tags)", async () => {
    const w = newWallet();
    const soon = await w.store(uniqueText("soon"), {
      tags: ["ephemeral"],
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const stays = await w.store(uniqueText("stays"), {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const before = await list(w);
    expect(sorted(ids(before))).toEqual(sorted([soon, stays]));

    await expireNow([soon]);

    const after = await list(w);
    expect(ids(after)).toEqual([stays]);
    expect(after.total).toBe(1);
    expectError(await w.get(`/v1/memories/${soon}`), 404, "NOT_FOUND");
    expect((await w.get("/v1/memories/count")).body).toEqual({ count: 1 });
    expect((await w.get("/v1/tags")).body).toEqual({ tags: [] });
  });

  it("never shows another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    await a.store(uniqueText("secret"), { tags: ["shared-tag"], namespace: "ns" });
    const mine = await b.store(uniqueText("mine"));

    const page = await list(b);
    expect(ids(page)).toEqual([mine]);
    expect(page.total).toBe(1);
    expect((await list(b, "tags=shared-tag")).total).toBe(0);
    expect((await list(b, "namespace=ns")).total).toBe(0);
    expect((await b.get("/v1/memories/count")).body).toEqual({ count: 1 });
    expect((await b.get("/v1/tags")).body).toEqual({ tags: [] });
    const fresh = newWallet();
    expect(await list(fresh)).toEqual({ memories: [], total: 0, limit: 20, offset: 0 });
  });
});
