/** The graph screen's Cytoscape.js canvas: nodes, edges and their styles. */
import cytoscape from "cytoscape";
import { useEffect, useRef } from "preact/hooks";
import type { GraphEdge } from "../api";
import { excerpt } from "../ui";

/** Colours per relation type (each at least 4.5:1 on white); supersedes is also dashed. */
export const EDGE_COLOURS: Record<string, string> = {
  related_to: "#455a64",
  derived_from: "#6a1b9a",
  contradicts: "#a34100",
  supersedes: "#b3261e",
  supports: "#2e6b30",
};

export interface GraphNodeView {
  id: string;
  content: string;
  importance: number;
  root: boolean;
  /** A memory consolidation merged away: only reachable through its supersedes edge. */
  deleted: boolean;
}

export interface GraphData {
  nodes: GraphNodeView[];
  edges: GraphEdge[];
  depth: number;
  /** How many live memories had their relations read for merged (deleted) ones, of how many. */
  mergedChecked: number;
  liveCount: number;
}

export function GraphCanvas({
  data,
  onOpen,
}: {
  data: GraphData;
  onOpen: (node: GraphNodeView) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  useEffect(() => {
    if (!container.current) return;
    const byId = new Map(data.nodes.map((n) => [n.id, n]));
    const cy = cytoscape({
      container: container.current,
      elements: [
        ...data.nodes.map((n) => ({
          data: { id: n.id, label: excerpt(n.content, 40) },
          classes: [n.root ? "root" : "", n.deleted ? "deleted" : ""].join(" ").trim(),
        })),
        ...data.edges.map((e, i) => ({
          data: {
            id: `e${i}`,
            source: e.source_id,
            target: e.target_id,
            label: e.relation_type,
            colour: EDGE_COLOURS[e.relation_type] ?? "#333333",
          },
          classes: e.relation_type,
        })),
      ],
      style: [
        {
          selector: "node",
          style: {
            label: "data(label)",
            "background-color": "#1a56db",
            color: "#111111",
            "font-size": 11,
            "text-wrap": "wrap",
            "text-max-width": "140px",
            "text-valign": "bottom",
            "text-margin-y": 4,
            width: 22,
            height: 22,
          },
        },
        {
          selector: "node.root",
          style: { "background-color": "#0b3d91", width: 34, height: 34, "font-weight": "bold" },
        },
        {
          selector: "node.deleted",
          style: {
            "background-color": "#ffffff",
            "border-width": 2,
            "border-style": "dashed",
            "border-color": "#b3261e",
            color: "#444444",
          },
        },
        {
          selector: "edge",
          style: {
            width: 2,
            "line-color": "data(colour)",
            "target-arrow-color": "data(colour)",
            "target-arrow-shape": "triangle",
            "curve-style": "bezier",
            label: "data(label)",
            "font-size": 10,
            color: "data(colour)",
            "text-background-color": "#ffffff",
            "text-background-opacity": 1,
            "text-rotation": "autorotate",
          },
        },
        { selector: "edge.supersedes", style: { "line-style": "dashed", width: 3 } },
      ],
      layout:
        data.nodes.length <= 30
          ? {
              name: "breadthfirst",
              roots: [data.nodes[0]?.id ?? ""],
              directed: false,
              spacingFactor: 1.2,
              padding: 30,
            }
          : { name: "cose", animate: false, padding: 30 },
      userZoomingEnabled: true,
      boxSelectionEnabled: false,
      minZoom: 0.3,
      maxZoom: 2.5,
    });
    cy.on("tap", "node", (event) => {
      const node = byId.get(event.target.id());
      if (node) openRef.current(node);
    });
    window.memoryConsoleGraph = {
      nodeAt: (id) => {
        const node = cy.getElementById(id);
        return node.length > 0 ? node.renderedPosition() : null;
      },
    };
    return () => {
      window.memoryConsoleGraph = undefined;
      cy.destroy();
    };
  }, [data]);
  const roots = data.nodes.filter((n) => n.root);
  return (
    <div
      ref={container}
      class="graph-canvas"
      data-testid="graph-canvas"
      role="img"
      aria-label={`Relation graph around “${excerpt(roots[0]?.content ?? "", 60)}”: ${data.nodes.length} memories, ${data.edges.length} relations. The same graph is listed below.`}
    />
  );
}
