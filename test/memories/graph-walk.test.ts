/** The breadth-first walk of GET /v1/memories/:id/graph (worker/memories/graph-walk.ts). */
import { describe, expect, it } from "vitest";
import { type Edge, type WalkOptions, walkGraph } from "../../worker/memories/graph-walk";

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

  /**
   * Walks from `root` over `edges` and returns what the walk found: the memories in visiting
   * order, the edges (sorted keys), the depth reached, and the frontiers edgesOf was asked about.
   */
  async function walk(edges: Edge[], root: string, limits: WalkOptions) {
    const s = store(edges);
    const r = await walkGraph(root, s.edgesOf, limits);
    return { nodeIds: r.nodeIds, edges: keys(r.edges), depth: r.depth, calls: s.calls };
  }

  const chain = [e("A", "B"), e("B", "C"), e("C", "D"), e("D", "E"), e("E", "F")];
  const wholeChain = keys(chain);

  it("stops at maxDepth and reports the depth reached", async () => {
    expect(await walk(chain, "A", { maxDepth: 2, maxNodes: 50 })).toEqual({
      nodeIds: ["B", "C"],
      edges: ["A>B:related_to", "B>C:related_to"],
      depth: 2,
      calls: [["A"], ["B"]],
    });
  });

  it("ends early when the graph is exhausted", async () => {
    // Level 6 asks about F, finds nothing new, and the walk ends.
    expect(await walk(chain, "A", { maxDepth: 10, maxNodes: 50 })).toEqual({
      nodeIds: ["B", "C", "D", "E", "F"],
      edges: wholeChain,
      depth: 5,
      calls: [["A"], ["B"], ["C"], ["D"], ["E"], ["F"]],
    });
  });

  it("reports depth 0 and nothing else for an isolated root", async () => {
    expect(await walk([e("X", "Y")], "A", { maxDepth: 3, maxNodes: 50 })).toEqual({
      nodeIds: [],
      edges: [],
      depth: 0,
      calls: [["A"]],
    });
  });

  it("follows relations in both directions", async () => {
    const fromMiddle = await walk(chain, "D", { maxDepth: 5, maxNodes: 50 });
    expect(fromMiddle.nodeIds).toEqual(["C", "E", "B", "F", "A"]);
    expect(fromMiddle.depth).toBe(3);
    expect(fromMiddle.edges).toEqual(wholeChain);
    expect(fromMiddle.calls).toEqual([["D"], ["C", "E"], ["B", "F"], ["A"]]);
    const incoming = await walk(chain, "F", { maxDepth: 2, maxNodes: 50 });
    expect(incoming.nodeIds).toEqual(["E", "D"]);
  });

  it("visits each memory of a cycle once", async () => {
    expect(
      await walk([e("A", "B"), e("B", "C"), e("C", "A")], "A", { maxDepth: 5, maxNodes: 50 }),
    ).toEqual({
      nodeIds: ["B", "C"],
      edges: ["A>B:related_to", "B>C:related_to", "C>A:related_to"],
      depth: 1,
      calls: [["A"], ["B", "C"]],
    });
  });

  it("caps the memories at maxNodes, root included, and drops edges to the rest", async () => {
    const star = [e("A", "B"), e("A", "C"), e("A", "D"), e("D", "E")];
    const r = await walk(star, "A", { maxDepth: 5, maxNodes: 3 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(r.edges).toEqual(["A>B:related_to", "A>C:related_to"]);
    expect(r.depth).toBe(1);

    const one = await walk(star, "A", { maxDepth: 5, maxNodes: 1 });
    expect(one).toEqual({ nodeIds: [], edges: [], depth: 0, calls: [["A"]] });

    const capChain = await walk(chain, "A", { maxDepth: 5, maxNodes: 4 });
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
