/** The breadth-first walk of GET /v1/memories/:id/graph (worker/memories/graph-walk.ts). */
import { describe, expect, it } from "vitest";
import { type Edge, walkGraph } from "../../worker/memories/graph-walk";

describe("graph-walk: walkGraph", () => {
  const e = (source_id: string, target_id: string, relation_type = "related_to"): Edge => ({
    source_id,
    target_id,
    relation_type,
  });

  /** edgesOf over an in-memory edge list, recording each frontier it is asked about. */
  function store(edges: Edge[]) {
    const calls: string[][] = [];
    const edgesOf = async (frontier: string[]) => {
      calls.push([...frontier]);
      return edges.filter((x) => frontier.includes(x.source_id) || frontier.includes(x.target_id));
    };
    return { calls, edgesOf };
  }

  const keys = (edges: Edge[]) =>
    edges.map((x) => `${x.source_id}>${x.target_id}:${x.relation_type}`).sort();

  const chain = [e("A", "B"), e("B", "C"), e("C", "D"), e("D", "E"), e("E", "F")];

  it("stops at maxDepth and reports the depth reached", async () => {
    const s = store(chain);
    const r = await walkGraph("A", s.edgesOf, { maxDepth: 2, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "B>C:related_to"]);
    expect(r.depth).toBe(2);
    expect(s.calls).toEqual([["A"], ["B"]]);
  });

  it("ends early when the graph is exhausted", async () => {
    const s = store(chain);
    const r = await walkGraph("A", s.edgesOf, { maxDepth: 10, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C", "D", "E", "F"]);
    expect(r.edges).toHaveLength(5);
    expect(r.depth).toBe(5);
    // Level 6 asks about F, finds nothing new, and the walk ends.
    expect(s.calls).toEqual([["A"], ["B"], ["C"], ["D"], ["E"], ["F"]]);
  });

  it("reports depth 0 and nothing else for an isolated root", async () => {
    const s = store([e("X", "Y")]);
    expect(await walkGraph("A", s.edgesOf, { maxDepth: 3, maxNodes: 50 })).toEqual({
      nodeIds: [],
      edges: [],
      depth: 0,
    });
    expect(s.calls).toEqual([["A"]]);
  });

  it("follows relations in both directions", async () => {
    const s = store(chain);
    const r = await walkGraph("D", s.edgesOf, { maxDepth: 5, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["C", "E", "B", "F", "A"]);
    expect(r.depth).toBe(3);
    expect(r.edges).toHaveLength(5);
    const incoming = await walkGraph("F", store(chain).edgesOf, { maxDepth: 2, maxNodes: 50 });
    expect(incoming.nodeIds).toEqual(["E", "D"]);
  });

  it("visits each memory of a cycle once", async () => {
    const s = store([e("A", "B"), e("B", "C"), e("C", "A")]);
    const r = await walkGraph("A", s.edgesOf, { maxDepth: 5, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "B>C:related_to", "C>A:related_to"]);
    expect(r.depth).toBe(1);
    expect(s.calls).toEqual([["A"], ["B", "C"]]);
  });

  it("caps the memories at maxNodes, root included, and drops edges to the rest", async () => {
    const star = [e("A", "B"), e("A", "C"), e("A", "D"), e("D", "E")];
    const r = await walkGraph("A", store(star).edgesOf, { maxDepth: 5, maxNodes: 3 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "A>C:related_to"]);
    expect(r.depth).toBe(1);

    const one = await walkGraph("A", store(star).edgesOf, { maxDepth: 5, maxNodes: 1 });
    expect(one).toEqual({ nodeIds: [], edges: [], depth: 0 });

    const capChain = await walkGraph("A", store(chain).edgesOf, { maxDepth: 5, maxNodes: 4 });
    expect(capChain.nodeIds).toEqual(["B", "C", "D"]);
    expect(capChain.edges).toHaveLength(3);
    expect(capChain.depth).toBe(3);
  });

  it("keeps each edge once but parallel edges of different types apart", async () => {
    const edges = [e("A", "B", "supports"), e("A", "B", "related_to"), e("B", "C", "supports")];
    // A store that reports every edge twice.
    const twice = async (frontier: string[]) => {
      const hit = edges.filter(
        (x) => frontier.includes(x.source_id) || frontier.includes(x.target_id),
      );
      return [...hit, ...hit];
    };
    const r = await walkGraph("A", twice, { maxDepth: 3, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "A>B:supports", "B>C:supports"]);
  });

  it("adds edges between memories of the same level without deepening", async () => {
    const tri = [e("A", "B"), e("A", "C"), e("B", "C", "supports")];
    const shallow = await walkGraph("A", store(tri).edgesOf, { maxDepth: 1, maxNodes: 50 });
    expect(keys(shallow.edges)).toEqual(["A>B:related_to", "A>C:related_to"]);
    const deeper = await walkGraph("A", store(tri).edgesOf, { maxDepth: 2, maxNodes: 50 });
    expect(deeper.nodeIds).toEqual(["B", "C"]);
    expect(keys(deeper.edges)).toEqual(["A>B:related_to", "A>C:related_to", "B>C:supports"]);
    expect(deeper.depth).toBe(1);
  });
});
