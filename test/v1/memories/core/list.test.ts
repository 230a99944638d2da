/**
 * The core (pinned) memories list: GET /v1/memories/core with its aliases GET
 * /v1/core-memories and GET /v1/core: what it lists and shows, its filters and paging, and
 * wallet isolation. Every test uses fresh wallets.
 */
import { describe, expect, it } from "vitest";
import { expectError, ids, newWallet, sleep, sorted, uniqueText } from "../../../helpers";
import { core, pin } from "./fixtures";

describe("GET /v1/memories/core", () => {
  it("lists pinned memories only, with total, from every way of pinning", async () => {
    const w = newWallet();
    const atStore = await w.store(uniqueText("at-store"), { pinned: true, importance: 0.9 });
    const viaPatch = await w.store(uniqueText("via-patch"), { importance: 0.6 });
    const viaCore = await w.store(uniqueText("via-core"), { importance: 0.3 });
    await w.store(uniqueText("plain"));
    await w.store(uniqueText("plain2"), { importance: 1 });

    const patched = await w.patch(`/v1/memories/${viaPatch}`, { pinned: true });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await pin(w, viaCore);

    const list = await core(w);
    expect(list.total).toBe(3);
    expect(sorted(ids(list))).toEqual(sorted([atStore, viaPatch, viaCore]));
    for (const item of list.memories) {
      expect(item.pinned).toBe(true);
      for (const key of ["id", "content", "importance", "pinned", "memory_type", "tags"]) {
        expect(item, key).toHaveProperty(key);
      }
      expect(Number.isNaN(Date.parse(item.created_at))).toBe(false);
      expect(Array.isArray(item.tags)).toBe(true);
    }

    // PATCH {pinned:false} takes it out again.
    expect((await w.patch(`/v1/memories/${viaPatch}`, { pinned: false })).status).toBe(200);
    const after = await core(w);
    expect(sorted(ids(after))).toEqual(sorted([atStore, viaCore]));
    expect(after.total).toBe(2);
  });

  it("items carry metadata, immutable, and session, agent and expiry when set", async () => {
    // The public Python SDK parses core items as full memories and reads defaults for what is
    // missing ({} metadata, mutable, no session). Session, agent and expiry are left out when
    // null: the public MCP server's output schemas refuse null there.
    const w = newWallet();
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const full = await w.store(uniqueText("full"), {
      pinned: true,
      importance: 0.9,
      metadata: { source: "handbook" },
      tags: ["ops"],
      session_id: "sess-2",
      agent_id: "ops-bot",
      expires_at: expires,
      immutable: true,
    });
    const plain = await w.store(uniqueText("plain"), { pinned: true, importance: 0.1 });
    const list = await core(w);
    expect(ids(list)).toEqual([full, plain]);
    const [a, b] = list.memories;
    expect(a).toMatchObject({
      metadata: { source: "handbook", tags: ["ops"] },
      pinned: true,
      immutable: true,
      session_id: "sess-2",
      agent_id: "ops-bot",
      expires_at: expires,
    });
    expect(b).toMatchObject({ metadata: {}, pinned: true, immutable: false });
    for (const key of ["session_id", "agent_id", "expires_at"]) {
      expect(b, key).not.toHaveProperty(key);
    }
  });

  it("filters by namespace and agent_id; pages with limit and offset", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), {
      pinned: true,
      namespace: "work",
      agent_id: "bot",
      importance: 0.9,
    });
    await sleep(5);
    const b = await w.store(uniqueText("b"), { pinned: true, namespace: "work", importance: 0.5 });
    await sleep(5);
    const c = await w.store(uniqueText("c"), { pinned: true, agent_id: "bot", importance: 0.1 });
    await w.store(uniqueText("d"), { namespace: "work", agent_id: "bot" });

    const work = await core(w, "namespace=work");
    expect(sorted(ids(work))).toEqual(sorted([a, b]));
    expect(work.total).toBe(2);
    const bot = await core(w, "agent_id=bot");
    expect(sorted(ids(bot))).toEqual(sorted([a, c]));
    expect(bot.total).toBe(2);
    expect(ids(await core(w, "namespace=work&agent_id=bot"))).toEqual([a]);
    expect(await core(w, "namespace=none")).toEqual({ memories: [], total: 0 });

    const all = await core(w);
    expect(all.total).toBe(3);
    const order = ids(all);
    expect(sorted(order)).toEqual(sorted([a, b, c]));
    const first = await core(w, "limit=1");
    expect(ids(first)).toEqual([order[0]]);
    expect(first.total).toBe(3);
    const second = await core(w, "limit=1&offset=1");
    expect(ids(second)).toEqual([order[1]]);
    expect(second.total).toBe(3);
    const tail = await core(w, "limit=2&offset=2");
    expect(ids(tail)).toEqual([order[2]]);
    expect((await core(w, "offset=3")).memories).toEqual([]);
  });

  it("defaults to 20 items, clamps a limit above 100 and rejects one below 1", async () => {
    const w = newWallet();
    await w.storeMany(
      Array.from({ length: 22 }, (_, i) => ({ content: uniqueText(`c${i}`), pinned: true })),
    );
    const page = await core(w);
    expect(page.memories).toHaveLength(20);
    expect(page.total).toBe(22);
    expect((await core(w, "limit=100")).memories).toHaveLength(22);
    expect((await core(w, "offset=20")).memories).toHaveLength(2);
    // The public CLI over-fetches up to 1000: clamped to 100, not refused.
    await w.storeMany(
      Array.from({ length: 79 }, (_, i) => ({ content: uniqueText(`d${i}`), pinned: true })),
    );
    for (const q of ["limit=101", "limit=1000"]) {
      const clamped = await core(w, q);
      expect(clamped.memories, q).toHaveLength(100);
      expect(clamped.total, q).toBe(101);
    }

    for (const q of ["limit=0", "limit=abc", "offset=-1"]) {
      expectError(await w.get(`/v1/memories/core?${q}`), 422, "VALIDATION_ERROR");
    }
  });

  it("aliases /v1/core-memories and /v1/core return the same", async () => {
    const w = newWallet();
    const a = await w.store(uniqueText("a"), { pinned: true, namespace: "x", agent_id: "ag" });
    await w.store(uniqueText("b"), { pinned: true });
    await w.store(uniqueText("c"));

    for (const query of ["", "namespace=x", "agent_id=ag", "limit=1&offset=1"]) {
      const spec = await core(w, query);
      expect(await core(w, query, "/v1/core-memories"), query).toEqual(spec);
      expect(await core(w, query, "/v1/core"), query).toEqual(spec);
    }
    expect(ids(await core(w, "namespace=x", "/v1/core"))).toEqual([a]);
    expect((await core(w, "", "/v1/core-memories")).total).toBe(2);
    expectError(await w.get("/v1/core?limit=0"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/core-memories?limit=-1"), 422, "VALIDATION_ERROR");
    expect((await core(w, "limit=1000", "/v1/core-memories")).total).toBe(2);
  });

  it("excludes deleted memories and never shows another wallet's", async () => {
    const a = newWallet();
    const b = newWallet();
    const keep = await a.store(uniqueText("keep"), { pinned: true });
    const gone = await a.store(uniqueText("gone"), { pinned: true });
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);
    expect(ids(await core(a))).toEqual([keep]);
    expect((await core(a)).total).toBe(1);

    const mine = await b.store(uniqueText("mine"), { pinned: true });
    for (const path of ["/v1/memories/core", "/v1/core-memories", "/v1/core"]) {
      const list = await core(b, "", path);
      expect(ids(list), path).toEqual([mine]);
      expect(list.total).toBe(1);
    }
  });
});
