/** GET /v1/memories/:id/graph: the walk over relations from a root memory. */
import { describe, expect, it } from "vitest";
import { expectError, type Json, MISSING_ID, newWallet, request, type Wallet } from "../../helpers";
import { expectOwnLiveMemoryOnly, graph, storeTexts, text } from "./fixtures";

const edgeKeys = (edges: Json[]) =>
  edges.map((e: Json) => `${e.source_id}>${e.target_id}:${e.relation_type}`).sort();

function pick<T>(list: T[], i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`no element ${i}`);
  return v;
}

describe("GET /v1/memories/:id/graph", () => {
  /** A→B→C→D→E→F (related_to), returned as [A, B, C, D, E, F]. */
  async function chain(w: Wallet) {
    const ids = await storeTexts(w, 6);
    for (let i = 0; i < 5; i++) await w.relate(pick(ids, i), pick(ids, i + 1), "related_to");
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
    const [a = ""] = await storeTexts(w, 1);
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
    const [a = "", b = "", c = "", d = "", e = ""] = await storeTexts(w, 5);
    await w.relate(a, b, "supports");
    await w.relate(a, c, "related_to");
    await w.relate(b, d, "supports");
    await w.relate(c, e, "supports");

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
    const [x = "", y = "", z = ""] = await storeTexts(w, 3);
    await w.relate(x, y, "supports");
    await w.relate(y, z, "supports");
    await w.relate(z, x, "supports");
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
    const [a = ""] = await storeTexts(w, 1);
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
    const [a = "", b = ""] = await storeTexts(w, 2);
    await w.relate(a, b);
    await expectOwnLiveMemoryOnly(w, a, "graph");
    // b is still there, with no neighbours left.
    const g = await graph(w, b);
    expect(g.nodes).toEqual([]);
    expect(g.edges).toEqual([]);
  });

  it("requires authentication", async () => {
    expectError(await request("GET", `/v1/memories/${MISSING_ID}/graph`), 401, "UNAUTHORIZED");
  });
});
