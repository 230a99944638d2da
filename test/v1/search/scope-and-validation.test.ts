/** POST /v1/search: filters, validation, odd queries, and the memories it never finds. */
import { describe, expect, it } from "vitest";
import { expireNow } from "../../db";
import { expectError, ids, newWallet, request, sorted } from "../../helpers";
import { search, searchGet, seedTelescopes } from "./fixtures";

describe("POST /v1/search", () => {
  it("applies the namespace, memory_type, tags, session_id and agent_id filters", async () => {
    const w = newWallet();
    const { m1, m2, m3, other } = await seedTelescopes(w);
    const q = (extra: Record<string, unknown>) => search(w, { query: "telescope", ...extra });

    expect(sorted(ids(await q({})))).toEqual(sorted([m1, m2, m3]));

    const ns = await q({ namespace: "astro" });
    expect(sorted(ids(ns))).toEqual(sorted([m1, m3]));
    expect(ns.total).toBe(2);
    expect(ids(await q({ namespace: "default" }))).toEqual([m2]);
    expect((await q({ namespace: "nowhere" })).total).toBe(0);

    expect(ids(await q({ memory_type: "observation" }))).toEqual([m2]);
    expect(ids(await q({ memory_type: "decision" }))).toEqual([]);

    expect(sorted(ids(await q({ tags: ["sky"] })))).toEqual(sorted([m1, m3]));
    expect(sorted(ids(await q({ tags: ["maintenance", "club"] })))).toEqual(sorted([m2, m3]));
    expect(ids(await q({ tags: ["unknown-tag"] }))).toEqual([]);

    expect(sorted(ids(await q({ session_id: "s1" })))).toEqual(sorted([m1, m3]));
    expect(sorted(ids(await q({ agent_id: "ag2" })))).toEqual(sorted([m2, m3]));

    const combined = await q({ namespace: "astro", agent_id: "ag2", tags: ["sky"] });
    expect(ids(combined)).toEqual([m3]);
    expect(combined.total).toBe(1);
    expect(ids(combined)).not.toContain(other);
  });

  it("rejects a missing, empty, blank or too long query with 422", async () => {
    const w = newWallet();
    await w.storeNew("Parsnips taste sweeter after the first frost");
    const bad: unknown[] = [
      {},
      { query: "" },
      { query: "   " },
      { query: "a".repeat(1001) },
      { query: 42 },
      { query: null },
    ];
    for (const body of bad) expectError(await w.post("/v1/search", body), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/search"), 422, "VALIDATION_ERROR");

    // 1,000 characters is still accepted.
    const max = await search(w, { query: `parsnips ${"x".repeat(991)}` });
    expect(max.total).toBe(0);
    const found = await search(w, { query: `parsnips ${" ".repeat(991)}` });
    expect(found.total).toBe(1);
  });

  it("rejects a limit outside 1..100 and invalid filters with 422", async () => {
    const w = newWallet();
    const id = await w.storeNew("Walnut trees drop their leaves early in autumn");
    const bad: unknown[] = [
      { query: "walnut", limit: 0 },
      { query: "walnut", limit: 101 },
      { query: "walnut", limit: -5 },
      { query: "walnut", limit: 2.5 },
      { query: "walnut", limit: "10" },
      { query: "walnut", memory_type: "gossip" },
      { query: "walnut", tags: "autumn" },
      { query: "walnut", tags: ["x".repeat(65)] },
      { query: "walnut", namespace: "n".repeat(256) },
    ];
    for (const body of bad) expectError(await w.post("/v1/search", body), 422, "VALIDATION_ERROR");
    expect(ids(await search(w, { query: "walnut", limit: 100 }))).toEqual([id]);
    expect(ids(await search(w, { query: "walnut", limit: 1 }))).toEqual([id]);
  });

  it("copes with punctuation and operators in the query", async () => {
    const w = newWallet();
    const id = await w.storeNew("Quokkas live on Rottnest Island near Perth");
    for (const query of [
      'quokkas "unterminated',
      "quokkas & | ! :* ( ) <->",
      "quokkas OR wombats",
      "'; DROP TABLE memories; --",
      "-quokkas",
    ]) {
      const res = await w.post("/v1/search", { query });
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.query).toBe(query);
    }
    expect(ids(await search(w, { query: "quokkas OR wombats" }))).toEqual([id]);
    expect(ids(await search(w, { query: "wombats" }))).toEqual([]);
    // Stop words alone make an empty text query: nothing matches, no error.
    expect(await search(w, { query: "the and of" })).toEqual({
      memories: [],
      total: 0,
      query: "the and of",
    });
  });

  it("never finds deleted or expired memories", async () => {
    const w = newWallet();
    const kept = await w.storeNew("The kumquat tree on the balcony has ripe fruit");
    const deleted = await w.storeNew("Kumquat marmalade recipe from grandmother's notebook");
    const expiring = await w.storeNew("Buy kumquats at the Saturday farmers market", {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(sorted(ids(await search(w, { query: "kumquat" })))).toEqual(
      sorted([kept, deleted, expiring]),
    );
    expect((await w.del(`/v1/memories/${deleted}`)).status).toBe(200);
    await expireNow([expiring]);
    const body = await search(w, { query: "kumquat" });
    expect(ids(body)).toEqual([kept]);
    expect(body.total).toBe(1);
    expect(ids(await searchGet(w, "q=kumquat"))).toEqual([kept]);
  });

  it("never returns another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    const mine = await a.storeNew("Zeppelin flights over the lake resume in May");
    const theirs = await b.storeNew("A zeppelin museum opened in Friedrichshafen");
    const fromA = await search(a, { query: "zeppelin" });
    expect(ids(fromA)).toEqual([mine]);
    expect(fromA.total).toBe(1);
    const fromB = await search(b, { query: "zeppelin" });
    expect(ids(fromB)).toEqual([theirs]);
    expect(fromB.total).toBe(1);
    expect(ids(await searchGet(b, "q=zeppelin"))).toEqual([theirs]);
    const fresh = await search(newWallet(), { query: "zeppelin" });
    expect(fresh).toEqual({ memories: [], total: 0, query: "zeppelin" });
  });

  it("requires authentication", async () => {
    expectError(await request("POST", "/v1/search", { body: { query: "x" } }), 401, "UNAUTHORIZED");
    expectError(await request("GET", "/v1/memories/search?q=x"), 401, "UNAUTHORIZED");
  });
});
