/**
 * Full-text keyword search: POST /v1/search and the clients' alias
 * GET /v1/memories/search?q=...
 */
import { describe, expect, it } from "vitest";
import {
  expectError,
  type Json,
  newWallet,
  request,
  sleep,
  storeNew,
  type Wallet,
} from "../helpers";

/** Stores one memory and checks it made a new record (not merged into an earlier one). */

async function search(w: Wallet, body: Record<string, unknown>): Promise<Json> {
  const res = await w.post("/v1/search", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function searchGet(w: Wallet, query: string): Promise<Json> {
  const res = await w.get(`/v1/memories/search?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const ids = (body: Json): string[] => body.memories.map((m: Json) => m.id);
const sorted = (list: string[]) => [...list].sort();

/** Four memories about telescopes with different scopes, and one unrelated in the same scope. */
async function seedTelescopes(w: Wallet) {
  const m1 = await storeNew(w, "Bought a new telescope for stargazing in the mountains", {
    namespace: "astro",
    memory_type: "project",
    tags: ["hobby", "sky"],
    session_id: "s1",
    agent_id: "ag1",
  });
  const m2 = await storeNew(w, "The telescope mirror needs careful cleaning before winter", {
    memory_type: "observation",
    tags: ["maintenance"],
    session_id: "s2",
    agent_id: "ag2",
  });
  const m3 = await storeNew(w, "Telescope club meets on Fridays downtown near the library", {
    namespace: "astro",
    memory_type: "general",
    tags: ["club", "sky"],
    session_id: "s1",
    agent_id: "ag2",
  });
  const other = await storeNew(w, "Cooking pasta requires salted boiling water", {
    namespace: "astro",
    tags: ["sky"],
    session_id: "s1",
    agent_id: "ag2",
  });
  return { m1, m2, m3, other };
}

describe("POST /v1/search", () => {
  it("finds memories by keyword and returns the documented fields", async () => {
    const w = newWallet();
    const id = await storeNew(w, "Remember to water the orchids every Tuesday", {
      importance: 0.7,
      memory_type: "preference",
      namespace: "plants",
      tags: ["home", "weekly"],
    });
    await storeNew(w, "The quarterly budget review is scheduled for March", {
      namespace: "plants",
    });
    const body = await search(w, { query: "orchids" });
    const stored = await w.get(`/v1/memories/${id}`);
    expect(body).toEqual({
      memories: [
        {
          id,
          content: "Remember to water the orchids every Tuesday",
          importance: 0.7,
          memory_type: "preference",
          namespace: "plants",
          tags: ["home", "weekly"],
          created_at: stored.body.created_at,
          // Client extras (the Python SDK parses search items as full memories).
          user_id: stored.body.user_id,
          embedding_model: stored.body.embedding_model,
          updated_at: stored.body.updated_at,
          accessed_at: stored.body.accessed_at,
          access_count: 0,
        },
      ],
      total: 1,
      query: "orchids",
    });
    expect(typeof stored.body.user_id).toBe("string");
    expect(typeof stored.body.embedding_model).toBe("string");
  });

  it("matches word forms through stemming", async () => {
    const w = newWallet();
    const runs = await storeNew(w, "She runs five kilometres along the river every morning");
    const meeting = await storeNew(w, "Weekly meetings with the design department happen online");
    await storeNew(w, "The cat sleeps on the sofa all afternoon");

    const running = await search(w, { query: "running" });
    expect(ids(running)).toEqual([runs]);
    expect(running.total).toBe(1);
    expect(running.query).toBe("running");

    expect(ids(await search(w, { query: "meeting" }))).toEqual([meeting]);
    expect(ids(await search(w, { query: "departments" }))).toEqual([meeting]);
  });

  it("returns an empty result when nothing matches", async () => {
    const w = newWallet();
    await storeNew(w, "Apples and pears grow in the northern orchard");
    const body = await search(w, { query: "submarine" });
    expect(body).toEqual({ memories: [], total: 0, query: "submarine" });
  });

  it("requires every word of the query (AND semantics)", async () => {
    const w = newWallet();
    const both = await storeNew(w, "The solar panel on the barn roof was replaced");
    await storeNew(w, "Solar eclipses are visible only from a narrow path");
    await storeNew(w, "A panel discussion about urban housing policy");
    const body = await search(w, { query: "solar panel" });
    expect(ids(body)).toEqual([both]);
    expect(body.total).toBe(1);
  });

  it("ranks the memory that mentions the term more often first", async () => {
    const w = newWallet();
    // Stored first, so recency alone would rank it last.
    const many = await storeNew(
      w,
      "Garden plan: raised garden beds, a garden shed, garden paths and a herb garden",
    );
    await sleep(20);
    const once = await storeNew(w, "The neighbours borrowed our ladder for the garden fence");
    await sleep(20);
    const unrelated = await storeNew(w, "Invoices are due at the end of each month");
    const body = await search(w, { query: "garden" });
    expect(ids(body)).toEqual([many, once]);
    expect(ids(body)).not.toContain(unrelated);
    expect(body.total).toBe(2);
  });

  it("ranks the memory where the terms stand closer together first", async () => {
    const w = newWallet();
    const close = await storeNew(w, "Coffee grinder settings: burr coarse for the french press");
    await sleep(20);
    const far = await storeNew(
      w,
      "The coffee shop downtown changed owners last spring and now the old burr machine " +
        "sits in the storage room behind the counter",
    );
    const body = await search(w, { query: "coffee burr" });
    expect(ids(body)).toEqual([close, far]);
  });

  it("reports the real number of matches when limit is smaller", async () => {
    const w = newWallet();
    const texts = [
      "Pelicans dive from great heights to catch fish",
      "A pelican colony nests on the small island",
      "Brown pelicans were once endangered in America",
      "The zoo's pelican enclosure reopened this week",
    ];
    for (const t of texts) await storeNew(w, t);
    await storeNew(w, "Flamingos stand on one leg to save energy");

    const one = await search(w, { query: "pelican", limit: 1 });
    expect(one.memories).toHaveLength(1);
    expect(one.total).toBe(4);

    const three = await search(w, { query: "pelican", limit: 3 });
    expect(three.memories).toHaveLength(3);
    expect(three.total).toBe(4);

    const all = await search(w, { query: "pelican" });
    expect(all.memories).toHaveLength(4);
    expect(all.total).toBe(4);
    // The first page is a prefix of the full ranking.
    expect(ids(three)).toEqual(ids(all).slice(0, 3));
  });

  it("defaults to 10 results", async () => {
    const w = newWallet();
    const res = await w.post("/v1/store/batch", {
      memories: Array.from({ length: 12 }, (_, i) => ({
        // One namespace each: deduplication only compares memories of the same namespace.
        content: `Lighthouse keeper log entry ${i}`,
        namespace: `ns${i}`,
      })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.deduplicated_count).toBe(0);
    const body = await search(w, { query: "lighthouse" });
    expect(body.memories).toHaveLength(10);
    expect(body.total).toBe(12);
  });

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
    await storeNew(w, "Parsnips taste sweeter after the first frost");
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
    const id = await storeNew(w, "Walnut trees drop their leaves early in autumn");
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
    const id = await storeNew(w, "Quokkas live on Rottnest Island near Perth");
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
    const kept = await storeNew(w, "The kumquat tree on the balcony has ripe fruit");
    const deleted = await storeNew(w, "Kumquat marmalade recipe from grandmother's notebook");
    const expiring = await storeNew(w, "Buy kumquats at the Saturday farmers market", {
      expires_at: new Date(Date.now() + 2000).toISOString(),
    });
    expect(sorted(ids(await search(w, { query: "kumquat" })))).toEqual(
      sorted([kept, deleted, expiring]),
    );
    expect((await w.del(`/v1/memories/${deleted}`)).status).toBe(200);
    await sleep(2500);
    const body = await search(w, { query: "kumquat" });
    expect(ids(body)).toEqual([kept]);
    expect(body.total).toBe(1);
    expect(ids(await searchGet(w, "q=kumquat"))).toEqual([kept]);
  });

  it("never returns another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    const mine = await storeNew(a, "Zeppelin flights over the lake resume in May");
    const theirs = await storeNew(b, "A zeppelin museum opened in Friedrichshafen");
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

describe("GET /v1/memories/search (client alias)", () => {
  it("returns the same body as POST /v1/search", async () => {
    const w = newWallet();
    const { m1, m2, m3 } = await seedTelescopes(w);
    const viaGet = await searchGet(w, "q=telescope");
    const viaPost = await search(w, { query: "telescope" });
    expect(viaGet).toEqual(viaPost);
    expect(sorted(ids(viaGet))).toEqual(sorted([m1, m2, m3]));
    expect(viaGet.total).toBe(3);
    expect(viaGet.query).toBe("telescope");
    const first = viaGet.memories.find((m: Json) => m.id === m1);
    expect(Object.keys(first).sort()).toEqual(
      [
        "content",
        "created_at",
        "id",
        "importance",
        "memory_type",
        "namespace",
        "tags",
        "user_id",
        "embedding_model",
        "updated_at",
        "accessed_at",
        "access_count",
      ].sort(),
    );
    expect(first.tags).toEqual(["hobby", "sky"]);
    expect(first.namespace).toBe("astro");
    expect(first.memory_type).toBe("project");

    const limited = await searchGet(w, "q=telescope&limit=2");
    expect(limited).toEqual(await search(w, { query: "telescope", limit: 2 }));
    expect(limited.memories).toHaveLength(2);
    expect(limited.total).toBe(3);
  });

  it("applies namespace, tags (csv), memory_type, session_id and agent_id", async () => {
    const w = newWallet();
    const { m1, m2, m3 } = await seedTelescopes(w);
    const get = async (qs: string) => ids(await searchGet(w, `q=telescope&${qs}`));
    expect(sorted(await get("namespace=astro"))).toEqual(sorted([m1, m3]));
    expect(sorted(await get("tags=maintenance,club"))).toEqual(sorted([m2, m3]));
    expect(sorted(await get("tags=sky"))).toEqual(sorted([m1, m3]));
    expect(await get("memory_type=observation")).toEqual([m2]);
    expect(sorted(await get("session_id=s1"))).toEqual(sorted([m1, m3]));
    expect(sorted(await get("agent_id=ag2"))).toEqual(sorted([m2, m3]));
    expect(await get("namespace=astro&agent_id=ag1")).toEqual([m1]);
    expect(await get("session_id=nope")).toEqual([]);
  });

  it("applies after (created at or after the given time)", async () => {
    const w = newWallet();
    const early = await storeNew(w, "Kayak rental opens at nine on weekends");
    await sleep(50);
    const late = await storeNew(w, "Kayak paddles are stored in the blue shed");
    const createdEarly = Date.parse((await w.get(`/v1/memories/${early}`)).body.created_at);
    const createdLate = Date.parse((await w.get(`/v1/memories/${late}`)).body.created_at);
    expect(createdLate - createdEarly).toBeGreaterThanOrEqual(2);
    // A boundary strictly between the two (created_at is shown to the millisecond).
    const between = encodeURIComponent(new Date(createdEarly + 1).toISOString());

    expect(ids(await searchGet(w, `q=kayak&after=${between}`))).toEqual([late]);
    expect(ids(await search(w, { query: "kayak", after: decodeURIComponent(between) }))).toEqual([
      late,
    ]);
    expect(sorted(ids(await searchGet(w, "q=kayak&after=2000-01-01")))).toEqual(
      sorted([early, late]),
    );
    const future = new Date(createdLate + 86_400_000).toISOString();
    const none = await searchGet(w, `q=kayak&after=${encodeURIComponent(future)}`);
    expect(none.memories).toEqual([]);
    expect(none.total).toBe(0);
  });

  it("accepts `query` as well as `q`", async () => {
    const w = newWallet();
    const id = await storeNew(w, "Rhubarb crumble needs plenty of sugar");
    const body = await searchGet(w, "query=rhubarb");
    expect(ids(body)).toEqual([id]);
    expect(body.query).toBe("rhubarb");
  });

  it("rejects a missing, empty or too long q and bad parameters with 422", async () => {
    const w = newWallet();
    await storeNew(w, "Hedgehogs hibernate under piles of leaves");
    for (const qs of [
      "",
      "q=",
      "q=%20%20",
      `q=${"h".repeat(1001)}`,
      "q=hedgehog&limit=0",
      "q=hedgehog&limit=101",
      "q=hedgehog&limit=ten",
      "q=hedgehog&memory_type=gossip",
      "q=hedgehog&after=yesterday",
    ]) {
      expectError(await w.get(`/v1/memories/search?${qs}`), 422, "VALIDATION_ERROR");
    }
    expect((await searchGet(w, "q=hedgehog&limit=100")).total).toBe(1);
  });
});
