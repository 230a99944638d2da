/**
 * Breadth-first walk of the relation graph, independent of storage so it can be tested on
 * its own. Relations are followed in both directions; each memory is visited once, so
 * cycles end the walk instead of looping.
 */
export interface Edge {
  source_id: string;
  target_id: string;
  relation_type: string;
}

export interface WalkOptions {
  /** Levels to expand from the root (1 = direct neighbours). */
  maxDepth: number;
  /** Total memories returned, the root included. */
  maxNodes: number;
}

export interface WalkResult {
  /** Discovered memory ids in visiting order, without the root. */
  nodeIds: string[];
  /** Edges between visited memories (the root included), each once. */
  edges: Edge[];
  /** Distance of the farthest memory found (0 when the root has no neighbours). */
  depth: number;
}

export async function walkGraph(
  rootId: string,
  edgesOf: (frontier: string[]) => Promise<Edge[]>,
  opts: WalkOptions,
): Promise<WalkResult> {
  const visited = new Set([rootId]);
  const nodeIds: string[] = [];
  const edges = new Map<string, Edge>();
  let frontier = [rootId];
  let depth = 0;

  for (let level = 1; level <= opts.maxDepth && frontier.length > 0; level++) {
    const found = await edgesOf(frontier);
    const inFrontier = new Set(frontier);
    const next: string[] = [];
    for (const edge of found) {
      const from = inFrontier.has(edge.source_id) ? edge.source_id : edge.target_id;
      const other = from === edge.source_id ? edge.target_id : edge.source_id;
      if (!visited.has(other)) {
        if (visited.size >= opts.maxNodes) continue;
        visited.add(other);
        nodeIds.push(other);
        next.push(other);
        depth = level;
      }
      edges.set(`${edge.source_id}|${edge.target_id}|${edge.relation_type}`, edge);
    }
    frontier = next;
  }
  // Edges to memories dropped by the node cap are left out: every edge joins two returned nodes.
  const kept = [...edges.values()].filter(
    (e) => visited.has(e.source_id) && visited.has(e.target_id),
  );
  return { nodeIds, edges: kept, depth };
}
