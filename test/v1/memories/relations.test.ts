/**
 * Relations between memories, the graph they form, and the per-memory history endpoint:
 * POST/GET /v1/memories/:id/relations, DELETE /v1/memories/:id/relations/:relationId,
 * GET /v1/memories/:id/graph, GET /v1/memories/:id/history.
 */
import { describe, expect, it } from "vitest";
import {
  type ApiResponse,
  expectError,
  type Json,
  MISSING_ID,
  newWallet,
  request,
  storeNew,
  type Wallet,
} from "../../helpers";

const RELATION_TYPES = [
  "related_to",
  "derived_from",
  "contradicts",
  "supersedes",
  "supports",
] as const;

/**
 * Lexically unrelated sentences, so the store's deduplication (cosine ≥ 0.95) never merges
 * two of them: every test that needs N distinct memories takes them from here.
 */
const TEXTS = [
  "Volcanic eruptions reshape island coastlines over centuries",
  "Glacier meltwater feeds alpine rivers every summer",
  "Sourdough bread needs a lively starter and patience",
  "Jazz musicians improvise over complex chord changes",
  "Quantum computers exploit superposition of qubits",
  "Octopuses can change skin colour almost instantly",
  "Medieval castles had thick stone walls and moats",
  "Honeybees communicate flower locations by dancing",
  "Chess openings reward careful study of pawn structure",
  "Saturn's rings consist mostly of water ice particles",
] as const;

function text(i: number): string {
  const t = TEXTS[i];
  if (t === undefined) throw new Error(`no text ${i}`);
  return t;
}

/** Stores one memory and checks it made a new record (not merged into an earlier one). */

/** Stores `n` distinct memories. */
async function storeMany(w: Wallet, n: number, fields: Record<string, unknown> = {}) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await storeNew(w, text(i), fields));
  return ids;
}

async function relate(
  w: Wallet,
  source: string,
  target: string,
  relationType: string = "related_to",
  metadata?: Record<string, unknown>,
): Promise<Json> {
  const res = await w.post(`/v1/memories/${source}/relations`, {
    target_id: target,
    relation_type: relationType,
    ...(metadata === undefined ? {} : { metadata }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function relationsOf(w: Wallet, id: string, query = ""): Promise<Json[]> {
  const res = await w.get(`/v1/memories/${id}/relations${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.relations;
}

async function graph(w: Wallet, id: string, query = ""): Promise<Json> {
  const res = await w.get(`/v1/memories/${id}/graph${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const edgeKeys = (edges: Json[]) =>
  edges.map((e: Json) => `${e.source_id}>${e.target_id}:${e.relation_type}`).sort();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function pick<T>(list: T[], i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`no element ${i}`);
  return v;
}

describe("POST /v1/memories/:id/relations", () => {
  it("creates a relation and returns it with 201", async () => {
    const w = newWallet();
    const [a, b] = await storeMany(w, 2);
    const res = await w.post(`/v1/memories/${a}/relations`, {
      target_id: b,
      relation_type: "supports",
      metadata: { reason: "evidence", weight: 2, nested: { ok: true } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ["created_at", "id", "metadata", "relation_type", "source_id", "target_id"].sort(),
    );
    expect(res.body.id).toMatch(UUID);
    expect(res.body.source_id).toBe(a);
    expect(res.body.target_id).toBe(b);
    expect(res.body.relation_type).toBe("supports");
    expect(res.body.metadata).toEqual({ reason: "evidence", weight: 2, nested: { ok: true } });
    expect(res.body.created_at).toMatch(ISO);
    expect(Math.abs(Date.parse(res.body.created_at) - Date.now())).toBeLessThan(120_000);
  });

  it("defaults metadata to an empty object", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const rel = await relate(w, a, b);
    expect(rel.metadata).toEqual({});
  });

  it("accepts each of the five relation types between the same pair", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const ids = new Set<string>();
    for (const type of RELATION_TYPES) {
      const rel = await relate(w, a, b, type);
      expect(rel.relation_type).toBe(type);
      ids.add(rel.id);
    }
    expect(ids.size).toBe(5);
    const listed = await relationsOf(w, a);
    expect(listed.map((r: Json) => r.relation_type).sort()).toEqual([...RELATION_TYPES].sort());
  });

  it("rejects an unknown relation type with 422", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const res = await w.post(`/v1/memories/${a}/relations`, {
      target_id: b,
      relation_type: "loves",
    });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(await relationsOf(w, a)).toEqual([]);
  });

  it("rejects a missing relation type, missing or non-UUID target, bad metadata with 422", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const bad: unknown[] = [
      { target_id: b },
      { relation_type: "supports" },
      { target_id: "not-a-uuid", relation_type: "supports" },
      { target_id: 12345, relation_type: "supports" },
      { target_id: b, relation_type: "supports", metadata: "a string" },
      { target_id: b, relation_type: "supports", metadata: { a: { b: { c: { d: 1 } } } } },
      {},
    ];
    for (const body of bad) {
      const res = await w.post(`/v1/memories/${a}/relations`, body);
      expectError(res, 422, "VALIDATION_ERROR");
    }
    const noBody = await w.post(`/v1/memories/${a}/relations`);
    expectError(noBody, 422, "VALIDATION_ERROR");
    expect(await relationsOf(w, a)).toEqual([]);
  });

  it("rejects a non-UUID source id in the path with 422", async () => {
    const w = newWallet();
    const [b] = await storeMany(w, 1);
    const res = await w.post("/v1/memories/not-a-uuid/relations", {
      target_id: b,
      relation_type: "supports",
    });
    expectError(res, 422, "VALIDATION_ERROR");
  });

  it("rejects a relation from a memory to itself with 422", async () => {
    const w = newWallet();
    const [a = ""] = await storeMany(w, 1);
    const res = await w.post(`/v1/memories/${a}/relations`, {
      target_id: a,
      relation_type: "related_to",
    });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(await relationsOf(w, a)).toEqual([]);
  });

  it("rejects a duplicate (same source, target and type) with 409, not the reverse", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const first = await relate(w, a, b, "contradicts");
    const again = await w.post(`/v1/memories/${a}/relations`, {
      target_id: b,
      relation_type: "contradicts",
      metadata: { other: true },
    });
    expectError(again, 409, "CONFLICT");
    // Relations are directed: b → a is another relation.
    const reverse = await relate(w, b, a, "contradicts");
    expect(reverse.id).not.toBe(first.id);
    const listed = await relationsOf(w, a);
    expect(listed.map((r: Json) => r.id).sort()).toEqual([first.id, reverse.id].sort());
  });

  it("answers 404 for a target or source that is unknown, deleted or another wallet's", async () => {
    const w = newWallet();
    const other = newWallet();
    const [a = "", b = "", c = ""] = await storeMany(w, 3);
    const foreign = await storeNew(other, text(5));
    const post = (source: string, target: string) =>
      w.post(`/v1/memories/${source}/relations`, { target_id: target, relation_type: "supports" });

    expectError(await post(a, MISSING_ID), 404, "NOT_FOUND");
    expectError(await post(MISSING_ID, a), 404, "NOT_FOUND");
    // Target of another wallet.
    expectError(await post(a, foreign), 404, "NOT_FOUND");
    // Source of another wallet (the caller owns the target).
    expectError(await post(foreign, a), 404, "NOT_FOUND");
    // The other wallet cannot relate its own memory to ours either.
    const fromOther = await other.post(`/v1/memories/${foreign}/relations`, {
      target_id: a,
      relation_type: "supports",
    });
    expectError(fromOther, 404, "NOT_FOUND");

    expect((await w.del(`/v1/memories/${b}`)).status).toBe(200);
    expectError(await post(a, b), 404, "NOT_FOUND"); // deleted target
    expectError(await post(b, c), 404, "NOT_FOUND"); // deleted source

    expect(await relationsOf(w, a)).toEqual([]);
    expect(await relationsOf(w, c)).toEqual([]);
    expect(await relationsOf(other, foreign)).toEqual([]);
  });

  it("accepts upper-case UUIDs in the path and body as the same memories", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeMany(w, 3);
    const A = a.toUpperCase();
    const rel = await relate(w, A, b.toUpperCase(), "supports");
    expect(rel.source_id).toBe(a);
    expect(rel.target_id).toBe(b);
    await relate(w, c, A, "related_to");
    // Self-relation is caught whatever the case.
    expectError(
      await w.post(`/v1/memories/${a}/relations`, { target_id: A, relation_type: "supports" }),
      422,
      "VALIDATION_ERROR",
    );
    const listed = await relationsOf(w, A);
    expect(listed.map((r: Json) => [r.memory.id, r.direction]).sort()).toEqual(
      [
        [b, "outgoing"],
        [c, "incoming"],
      ].sort(),
    );
    const g = await graph(w, A);
    expect(g.root.id).toBe(a);
    expect(g.nodes.map((n: Json) => n.id).sort()).toEqual([b, c].sort());
    const del = await w.del(`/v1/memories/${A}/relations/${String(rel.id).toUpperCase()}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, id: rel.id });
  });

  it("requires authentication", async () => {
    const res = await request("POST", `/v1/memories/${MISSING_ID}/relations`, {
      body: { target_id: MISSING_ID, relation_type: "supports" },
    });
    expectError(res, 401, "UNAUTHORIZED");
  });
});

describe("GET /v1/memories/:id/relations", () => {
  it("lists outgoing and incoming relations with the other end's summary", async () => {
    const w = newWallet();
    const a = await storeNew(w, text(0), { importance: 0.9, memory_type: "decision" });
    const b = await storeNew(w, text(1), {
      importance: 0.3,
      memory_type: "preference",
      namespace: "work",
    });
    const c = await storeNew(w, text(2), { importance: 0.7, memory_type: "observation" });
    const out = await relate(w, a, b, "supports", { why: "because" });
    const inc = await relate(w, c, a, "supersedes");

    const listed = await relationsOf(w, a);
    expect(listed).toHaveLength(2);
    const byId = new Map(listed.map((r: Json) => [r.id, r]));
    expect(byId.get(out.id)).toEqual({
      id: out.id,
      source_id: a,
      target_id: b,
      relation_type: "supports",
      metadata: { why: "because" },
      created_at: out.created_at,
      direction: "outgoing",
      memory: {
        id: b,
        content: text(1),
        importance: 0.3,
        memory_type: "preference",
        namespace: "work",
        deleted: false,
        deleted_at: null,
      },
    });
    expect(byId.get(inc.id)).toEqual({
      id: inc.id,
      source_id: c,
      target_id: a,
      relation_type: "supersedes",
      metadata: {},
      created_at: inc.created_at,
      direction: "incoming",
      memory: {
        id: c,
        content: text(2),
        importance: 0.7,
        memory_type: "observation",
        namespace: "default",
        deleted: false,
        deleted_at: null,
      },
    });

    // Seen from b, the same relation is incoming and its other end is a.
    const fromB = await relationsOf(w, b);
    expect(fromB).toHaveLength(1);
    expect(fromB[0].id).toBe(out.id);
    expect(fromB[0].direction).toBe("incoming");
    expect(fromB[0].memory).toEqual({
      id: a,
      content: text(0),
      importance: 0.9,
      memory_type: "decision",
      namespace: "default",
      deleted: false,
      deleted_at: null,
    });
  });

  it("returns an empty list for a memory without relations", async () => {
    const w = newWallet();
    const [a = ""] = await storeMany(w, 1);
    const res = await w.get(`/v1/memories/${a}/relations`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ relations: [] });
  });

  it("filters by direction", async () => {
    const w = newWallet();
    const [a = "", b = "", c = "", d = ""] = await storeMany(w, 4);
    const ab = await relate(w, a, b, "related_to");
    const ac = await relate(w, a, c, "supports");
    const da = await relate(w, d, a, "contradicts");

    const outgoing = await relationsOf(w, a, "?direction=outgoing");
    expect(outgoing.map((r: Json) => r.id).sort()).toEqual([ab.id, ac.id].sort());
    expect(outgoing.every((r: Json) => r.direction === "outgoing")).toBe(true);

    const incoming = await relationsOf(w, a, "?direction=incoming");
    expect(incoming.map((r: Json) => r.id)).toEqual([da.id]);
    expect(incoming[0].direction).toBe("incoming");
    expect(incoming[0].memory.id).toBe(d);

    const all = await relationsOf(w, a);
    expect(all.map((r: Json) => r.id).sort()).toEqual([ab.id, ac.id, da.id].sort());

    expectError(
      await w.get(`/v1/memories/${a}/relations?direction=sideways`),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("drops relations whose other end was deleted", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeMany(w, 3);
    await relate(w, a, b);
    const ac = await relate(w, c, a);
    expect(await relationsOf(w, a)).toHaveLength(2);
    expect((await w.del(`/v1/memories/${b}`)).status).toBe(200);
    const listed = await relationsOf(w, a);
    expect(listed.map((r: Json) => r.id)).toEqual([ac.id]);
    expect(await relationsOf(w, a, "?direction=outgoing")).toEqual([]);
  });

  it("keeps a memory's supersedes relations to deleted memories, marked deleted", async () => {
    const w = newWallet();
    const [a = "", b = "", c = "", d = "", e = ""] = await storeMany(w, 5);
    const ab = await relate(w, a, b, "supersedes");
    const ca = await relate(w, c, a, "supersedes");
    const ad = await relate(w, a, d, "related_to");
    const ae = await relate(w, a, e, "supersedes");
    for (const id of [b, c, d]) expect((await w.del(`/v1/memories/${id}`)).status).toBe(200);

    // a supersedes b, which is deleted: listed, the other end marked deleted. c's incoming
    // supersedes and the related_to to d point at deleted memories that a does not supersede.
    const listed = await relationsOf(w, a);
    expect(listed.map((r: Json) => r.id)).toEqual([ab.id, ae.id]);
    const [toB, toE] = listed;
    expect(toB).toMatchObject({
      source_id: a,
      target_id: b,
      relation_type: "supersedes",
      direction: "outgoing",
      memory: { id: b, content: text(1), deleted: true },
    });
    expect(toB.memory.deleted_at).toMatch(ISO);
    expect(toE.memory).toMatchObject({ id: e, deleted: false, deleted_at: null });
    expect(listed.map((r: Json) => r.id)).not.toContain(ca.id);
    expect(listed.map((r: Json) => r.id)).not.toContain(ad.id);
    expect((await relationsOf(w, a, "?direction=outgoing")).map((r: Json) => r.id)).toEqual([
      ab.id,
      ae.id,
    ]);
    expect(await relationsOf(w, a, "?direction=incoming")).toEqual([]);

    // The graph stays a graph of live memories.
    const g = await graph(w, a);
    expect(g.nodes.map((n: Json) => n.id)).toEqual([e]);
    // The deleted end has no relations list of its own, and another wallet sees nothing.
    expectError(await w.get(`/v1/memories/${b}/relations`), 404, "NOT_FOUND");
    expectError(await newWallet().get(`/v1/memories/${a}/relations`), 404, "NOT_FOUND");
    // The relation can still be removed through the live memory.
    const removed = await w.del(`/v1/memories/${a}/relations/${ab.id}`);
    expect(removed.status).toBe(200);
    expect((await relationsOf(w, a)).map((r: Json) => r.id)).toEqual([ae.id]);
  });

  it("answers 404 for an unknown, deleted or another wallet's memory, 422 for a bad id", async () => {
    const w = newWallet();
    const other = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    await relate(w, a, b);
    expectError(await other.get(`/v1/memories/${a}/relations`), 404, "NOT_FOUND");
    expectError(await w.get(`/v1/memories/${MISSING_ID}/relations`), 404, "NOT_FOUND");
    expectError(await w.get("/v1/memories/not-a-uuid/relations"), 422, "VALIDATION_ERROR");
    expect((await w.del(`/v1/memories/${a}`)).status).toBe(200);
    expectError(await w.get(`/v1/memories/${a}/relations`), 404, "NOT_FOUND");
  });
});

describe("DELETE /v1/memories/:id/relations/:relationId", () => {
  it("deletes a relation; deleting it again is 404", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeMany(w, 3);
    const ab = await relate(w, a, b);
    const ac = await relate(w, a, c);
    const res = await w.del(`/v1/memories/${a}/relations/${ab.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: ab.id });
    expect((await relationsOf(w, a)).map((r: Json) => r.id)).toEqual([ac.id]);
    expect(await relationsOf(w, b)).toEqual([]);
    expectError(await w.del(`/v1/memories/${a}/relations/${ab.id}`), 404, "NOT_FOUND");
    // Both memories are untouched.
    expect((await w.get(`/v1/memories/${a}`)).status).toBe(200);
    expect((await w.get(`/v1/memories/${b}`)).status).toBe(200);
    // The same relation can be made again afterwards.
    await relate(w, a, b);
  });

  it("deletes through the target memory's path too", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const ab = await relate(w, a, b, "supports");
    const res = await w.del(`/v1/memories/${b}/relations/${ab.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: ab.id });
    expect(await relationsOf(w, a)).toEqual([]);
  });

  it("answers 404 for a relation that does not touch the memory in the path", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeMany(w, 3);
    const ab = await relate(w, a, b);
    expectError(await w.del(`/v1/memories/${c}/relations/${ab.id}`), 404, "NOT_FOUND");
    expect((await relationsOf(w, a)).map((r: Json) => r.id)).toEqual([ab.id]);
    expectError(await w.del(`/v1/memories/${a}/relations/${MISSING_ID}`), 404, "NOT_FOUND");
  });

  it("answers 404 to another wallet and keeps the relation", async () => {
    const w = newWallet();
    const other = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const ab = await relate(w, a, b);
    const [x = ""] = await storeMany(other, 1);
    expectError(await other.del(`/v1/memories/${a}/relations/${ab.id}`), 404, "NOT_FOUND");
    // Through one of its own memories, the other wallet still cannot reach the relation.
    expectError(await other.del(`/v1/memories/${x}/relations/${ab.id}`), 404, "NOT_FOUND");
    expect((await relationsOf(w, a)).map((r: Json) => r.id)).toEqual([ab.id]);
  });

  it("answers 422 for a non-UUID memory or relation id", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    const ab = await relate(w, a, b);
    expectError(await w.del(`/v1/memories/${a}/relations/nope`), 422, "VALIDATION_ERROR");
    expectError(await w.del(`/v1/memories/nope/relations/${ab.id}`), 422, "VALIDATION_ERROR");
    expect(await relationsOf(w, a)).toHaveLength(1);
  });
});

describe("GET /v1/memories/:id/graph", () => {
  /** A→B→C→D→E→F (related_to), returned as [A, B, C, D, E, F]. */
  async function chain(w: Wallet) {
    const ids = await storeMany(w, 6);
    for (let i = 0; i < 5; i++) await relate(w, pick(ids, i), pick(ids, i + 1), "related_to");
    return ids;
  }

  it("walks two levels by default and reports root, nodes, edges and depth", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await chain(w);
    const g = await graph(w, a);
    expect(Object.keys(g).sort()).toEqual(["depth", "edges", "nodes", "root"]);
    const rootRes = await w.get(`/v1/memories/${a}`);
    expect(g.root).toEqual({ id: a, content: text(0), importance: rootRes.body.importance });
    expect(g.root.importance).toBe(0.5);
    expect(g.nodes).toEqual([
      { id: b, content: text(1), importance: 0.5 },
      { id: c, content: text(2), importance: 0.5 },
    ]);
    expect(edgeKeys(g.edges)).toEqual([`${a}>${b}:related_to`, `${b}>${c}:related_to`].sort());
    expect(Object.keys(g.edges[0]).sort()).toEqual(["relation_type", "source_id", "target_id"]);
    expect(g.depth).toBe(2);
  });

  it("reaches the end of the chain with depth=5 and reports the depth reached", async () => {
    const w = newWallet();
    const ids = await chain(w);
    const [a = "", , , , e = "", f = ""] = ids;
    const g5 = await graph(w, a, "?depth=5");
    expect(g5.nodes.map((n: Json) => n.id)).toEqual(ids.slice(1));
    expect(g5.edges).toHaveLength(5);
    expect(g5.depth).toBe(5);

    const g3 = await graph(w, a, "?depth=3");
    expect(g3.nodes.map((n: Json) => n.id)).toEqual(ids.slice(1, 4));
    expect(g3.depth).toBe(3);

    const g1 = await graph(w, a, "?depth=1");
    expect(g1.nodes.map((n: Json) => n.id)).toEqual([ids[1]]);
    expect(g1.depth).toBe(1);

    // From E both directions are followed: F and D at level 1, then C, B, A; 4 levels in all.
    const fromE = await graph(w, e, "?depth=5");
    expect(fromE.nodes.map((n: Json) => n.id).sort()).toEqual(
      [ids[0], ids[1], ids[2], ids[3], f].sort(),
    );
    expect(fromE.depth).toBe(4);
    expect(fromE.edges).toHaveLength(5);
  });

  it("follows incoming relations", async () => {
    const w = newWallet();
    const ids = await chain(w);
    const f = pick(ids, 5);
    const g = await graph(w, f);
    expect(g.nodes.map((n: Json) => n.id)).toEqual([ids[4], ids[3]]);
    expect(edgeKeys(g.edges)).toEqual(
      [`${ids[3]}>${ids[4]}:related_to`, `${ids[4]}>${f}:related_to`].sort(),
    );
    expect(g.depth).toBe(2);
  });

  it("rejects depth outside 1..5 and malformed values with 422", async () => {
    const w = newWallet();
    const [a = ""] = await storeMany(w, 1);
    for (const q of ["depth=6", "depth=0", "depth=-1", "depth=abc", "depth=2.5"]) {
      expectError(await w.get(`/v1/memories/${a}/graph?${q}`), 422, "VALIDATION_ERROR");
    }
  });

  it("caps the memories returned, root included, with limit", async () => {
    const w = newWallet();
    const ids = await chain(w);
    const a = pick(ids, 0);
    const g = await graph(w, a, "?depth=5&limit=3");
    expect(g.nodes.map((n: Json) => n.id)).toEqual([ids[1], ids[2]]);
    // Every returned edge joins two returned memories.
    expect(edgeKeys(g.edges)).toEqual(
      [`${a}>${ids[1]}:related_to`, `${ids[1]}>${ids[2]}:related_to`].sort(),
    );
    expect(g.depth).toBe(2);

    const one = await graph(w, a, "?depth=5&limit=1");
    expect(one.nodes).toEqual([]);
    expect(one.edges).toEqual([]);
    expect(one.depth).toBe(0);

    const max = await graph(w, a, "?depth=5&limit=200");
    expect(max.nodes).toHaveLength(5);

    for (const q of ["limit=201", "limit=0", "limit=many"]) {
      expectError(await w.get(`/v1/memories/${a}/graph?${q}`), 422, "VALIDATION_ERROR");
    }
  });

  it("filters edges by relation_types", async () => {
    const w = newWallet();
    const [a = "", b = "", c = "", d = "", e = ""] = await storeMany(w, 5);
    await relate(w, a, b, "supports");
    await relate(w, a, c, "related_to");
    await relate(w, b, d, "supports");
    await relate(w, c, e, "supports");

    const supports = await graph(w, a, "?relation_types=supports");
    expect(supports.nodes.map((n: Json) => n.id)).toEqual([b, d]);
    expect(edgeKeys(supports.edges)).toEqual([`${a}>${b}:supports`, `${b}>${d}:supports`].sort());
    expect(supports.depth).toBe(2);

    const related = await graph(w, a, "?relation_types=related_to");
    expect(related.nodes.map((n: Json) => n.id)).toEqual([c]);
    expect(related.depth).toBe(1);

    const both = await graph(w, a, "?relation_types=supports,related_to");
    expect(both.nodes.map((n: Json) => n.id).sort()).toEqual([b, c, d, e].sort());
    expect(both.edges).toHaveLength(4);

    const none = await graph(w, a, "?relation_types=contradicts");
    expect(none.nodes).toEqual([]);
    expect(none.edges).toEqual([]);
    expect(none.depth).toBe(0);

    expectError(
      await w.get(`/v1/memories/${a}/graph?relation_types=supports,bogus`),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("visits each memory of a cycle once", async () => {
    const w = newWallet();
    const [x = "", y = "", z = ""] = await storeMany(w, 3);
    await relate(w, x, y, "supports");
    await relate(w, y, z, "supports");
    await relate(w, z, x, "supports");
    const g = await graph(w, x, "?depth=5");
    expect(g.nodes.map((n: Json) => n.id).sort()).toEqual([y, z].sort());
    expect(new Set(g.nodes.map((n: Json) => n.id)).size).toBe(g.nodes.length);
    expect(g.nodes.some((n: Json) => n.id === x)).toBe(false);
    expect(edgeKeys(g.edges)).toEqual(
      [`${x}>${y}:supports`, `${y}>${z}:supports`, `${z}>${x}:supports`].sort(),
    );
    // y and z are both direct neighbours of x (one outgoing, one incoming).
    expect(g.depth).toBe(1);
  });

  it("reports an isolated memory with no nodes, no edges and depth 0", async () => {
    const w = newWallet();
    const [a = ""] = await storeMany(w, 1);
    const g = await graph(w, a, "?depth=5");
    expect(g).toEqual({
      root: { id: a, content: text(0), importance: 0.5 },
      nodes: [],
      edges: [],
      depth: 0,
    });
  });

  it("a deleted memory in the middle cuts the path", async () => {
    const w = newWallet();
    const ids = await chain(w);
    const [a = "", b = "", c = "", d = ""] = ids;
    expect((await w.del(`/v1/memories/${c}`)).status).toBe(200);
    const g = await graph(w, a, "?depth=5");
    expect(g.nodes.map((n: Json) => n.id)).toEqual([b]);
    expect(edgeKeys(g.edges)).toEqual([`${a}>${b}:related_to`]);
    expect(g.depth).toBe(1);
    // From the other side, D reaches E and F but not back past C.
    const fromD = await graph(w, d, "?depth=5");
    expect(fromD.nodes.map((n: Json) => n.id)).toEqual([ids[4], ids[5]]);
    expect(fromD.depth).toBe(2);
  });

  it("answers 404 for an unknown, deleted or another wallet's root, 422 for a bad id", async () => {
    const w = newWallet();
    const other = newWallet();
    const [a = "", b = ""] = await storeMany(w, 2);
    await relate(w, a, b);
    expectError(await other.get(`/v1/memories/${a}/graph`), 404, "NOT_FOUND");
    expectError(await w.get(`/v1/memories/${MISSING_ID}/graph`), 404, "NOT_FOUND");
    expectError(await w.get("/v1/memories/xyz/graph"), 422, "VALIDATION_ERROR");
    expect((await w.del(`/v1/memories/${a}`)).status).toBe(200);
    expectError(await w.get(`/v1/memories/${a}/graph`), 404, "NOT_FOUND");
    // b is still there, with no neighbours left.
    const g = await graph(w, b);
    expect(g.nodes).toEqual([]);
    expect(g.edges).toEqual([]);
  });

  it("requires authentication", async () => {
    expectError(await request("GET", `/v1/memories/${MISSING_ID}/graph`), 401, "UNAUTHORIZED");
  });
});

describe("GET /v1/memories/:id/history", () => {
  it("is empty after a store and records each PATCH, oldest first", async () => {
    const w = newWallet();
    const [a = ""] = await storeMany(w, 1);
    const empty = await w.get(`/v1/memories/${a}/history`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ history: [] });

    const p1 = await w.patch(`/v1/memories/${a}`, { importance: 0.8 });
    expect(p1.status, JSON.stringify(p1.body)).toBe(200);
    const p2 = await w.patch(`/v1/memories/${a}`, { memory_type: "decision", pinned: true });
    expect(p2.status, JSON.stringify(p2.body)).toBe(200);

    const res: ApiResponse = await w.get(`/v1/memories/${a}/history`);
    expect(res.status).toBe(200);
    expect(res.body.history).toHaveLength(2);
    const [h1, h2] = res.body.history;
    expect(h1.memory_id).toBe(a);
    expect(h1.id).toMatch(UUID);
    expect(h1.created_at).toMatch(ISO);
    expect(h1.changes).toEqual({ importance: 0.8 });
    expect(h2.changes).toEqual({ memory_type: "decision", pinned: true });
  });

  it("answers 404 for an unknown, deleted or another wallet's memory, 422 for a bad id", async () => {
    const w = newWallet();
    const other = newWallet();
    const [a = ""] = await storeMany(w, 1);
    expect((await w.patch(`/v1/memories/${a}`, { importance: 0.9 })).status).toBe(200);
    expectError(await other.get(`/v1/memories/${a}/history`), 404, "NOT_FOUND");
    expectError(await w.get(`/v1/memories/${MISSING_ID}/history`), 404, "NOT_FOUND");
    expectError(await w.get("/v1/memories/12345/history"), 422, "VALIDATION_ERROR");
    expect((await w.del(`/v1/memories/${a}`)).status).toBe(200);
    expectError(await w.get(`/v1/memories/${a}/history`), 404, "NOT_FOUND");
  });
});
