import { useEffect, useState } from "preact/hooks";
import { type Api, type Graph, memoryPath, RELATION_TYPES, type RelationListItem } from "../api";
import { Checkbox, SelectField, TextField, useField } from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { Screen } from "../components/screen";
import { href, navigate } from "../router";
import type { SharedNamespace } from "../shared";
import { ErrorNotice, excerpt, num, Status, useTask } from "../ui";
import { EDGE_COLOURS, GraphCanvas, type GraphData, type GraphNodeView } from "./graph-canvas";

/** The graph endpoint skips deleted memories; their supersedes edges come from relations. */
const MERGED_LOOKUPS = 25;

const DEPTHS = [1, 2, 3, 4, 5];

async function loadGraph(
  api: Api,
  id: string,
  opts: { depth: number; limit: number; types: string[]; merged: boolean },
): Promise<GraphData> {
  const graph = await api.get<Graph>(memoryPath(id, "/graph"), {
    depth: opts.depth,
    limit: opts.limit,
    relation_types: opts.types.length > 0 ? opts.types.join(",") : undefined,
  });
  const nodes: GraphNodeView[] = [
    { ...graph.root, root: true, deleted: false },
    ...graph.nodes.map((n) => ({ ...n, root: false, deleted: false })),
  ];
  const edges = [...graph.edges];
  const wantsSupersedes = opts.types.length === 0 || opts.types.includes("supersedes");
  let mergedChecked = 0;
  if (opts.merged && wantsSupersedes) {
    const known = new Set(nodes.map((n) => n.id));
    const toCheck = nodes.slice(0, MERGED_LOOKUPS);
    mergedChecked = toCheck.length;
    for (let i = 0; i < toCheck.length; i += 4) {
      const lists = await Promise.all(
        toCheck.slice(i, i + 4).map((n) =>
          api.get<{ relations: RelationListItem[] }>(memoryPath(n.id, "/relations"), {
            direction: "outgoing",
          }),
        ),
      );
      for (const { relations } of lists) {
        for (const r of relations) {
          if (r.relation_type !== "supersedes" || !r.memory?.deleted) continue;
          if (!known.has(r.target_id)) {
            known.add(r.target_id);
            nodes.push({
              id: r.target_id,
              content: r.memory.content,
              importance: r.memory.importance,
              root: false,
              deleted: true,
            });
          }
          edges.push({
            source_id: r.source_id,
            target_id: r.target_id,
            relation_type: "supersedes",
          });
        }
      }
    }
  }
  return { nodes, edges, depth: graph.depth, mergedChecked, liveCount: graph.nodes.length + 1 };
}

declare global {
  interface Window {
    /** Where each node is drawn, for keyboard-free checks (the browser test clicks there). */
    memoryConsoleGraph?: { nodeAt(id: string): { x: number; y: number } | null };
  }
}

export function GraphView(props: { api: Api; shared: SharedNamespace | null; id: string | null }) {
  const { api, shared, id } = props;
  const rootId = useField(id ?? "");
  const depth = useField("2");
  const limit = useField("50");
  const [types, setTypes] = useState<string[]>([]);
  // Merged memories are found through the relations list, which only the owner may read.
  const [merged, setMerged] = useState(shared === null);
  const [data, setData] = useState<GraphData | null>(null);
  const [status, setStatus] = useState("");
  const task = useTask();

  const load = async (target: string) => {
    if (!target.trim()) return;
    setStatus("");
    await task.run(async () => {
      const options = { depth: Number(depth.value), limit: Number(limit.value), types, merged };
      const next = await loadGraph(api, target.trim(), options).catch((err: unknown) => {
        setData(null);
        throw err;
      });
      setData(next);
      setStatus(`Graph loaded: ${next.nodes.length} memories, ${next.edges.length} relations.`);
    });
  };

  // Opened from a memory (#/graph/<id>): draw at once with the default filters.
  useEffect(() => {
    if (id) void load(id);
  }, [id]);

  const open = (node: GraphNodeView) => {
    if (node.deleted) {
      setStatus("That memory was merged into another by consolidation and is deleted.");
      return;
    }
    navigate({ view: "memory", id: node.id });
  };

  return (
    <Screen id="graph" title="Relation graph">
      <Form
        class="row"
        onSubmit={() => {
          const target = rootId.value.trim();
          if (target === id) void load(target);
          else navigate({ view: "graph", id: target });
        }}
      >
        <TextField
          id="g-root"
          label="Memory id"
          width="grow"
          required
          spellcheck={false}
          {...rootId}
        />
        <SelectField id="g-depth" label="Depth" choices={DEPTHS} {...depth} />
        <TextField id="g-limit" label="Max memories" type="number" min={1} max={200} {...limit} />
        <fieldset class="types">
          <legend>Relation types (none checked: all)</legend>
          {RELATION_TYPES.map((t) => (
            <Checkbox
              key={t}
              checked={types.includes(t)}
              onChecked={(on) => setTypes(on ? [...types, t] : types.filter((x) => x !== t))}
            >
              <span class="swatch" style={{ background: EDGE_COLOURS[t] }} aria-hidden="true" />
              {t}
            </Checkbox>
          ))}
        </fieldset>
        {!shared && (
          <Checkbox checked={merged} onChecked={setMerged}>
            Show memories merged away by consolidation (supersedes)
          </Checkbox>
        )}
        <Actions>
          <Submit busy={task.busy} busyText="Loading…">
            Show graph
          </Submit>
        </Actions>
      </Form>
      <ErrorNotice error={task.error} context="Could not load the graph" />
      <Status>{status}</Status>
      {data && (
        <>
          <GraphCanvas data={data} onOpen={open} />
          <p class="muted small-text">
            Click a memory to open it. Dashed red edges are <code>supersedes</code> (consolidation
            kept the source and merged the target into it); dashed outlined nodes are those merged,
            deleted memories
            {data.mergedChecked > 0 && data.mergedChecked < data.liveCount
              ? ` (looked up for the first ${data.mergedChecked} memories)`
              : ""}
            . Depth reached: {data.depth}.
          </p>
          <GraphLists data={data} />
        </>
      )}
    </Screen>
  );
}

/** The graph as lists: what keyboard and screen-reader users navigate. */
function GraphLists({ data }: { data: GraphData }) {
  const label = new Map(data.nodes.map((n) => [n.id, excerpt(n.content, 60)]));
  const deleted = new Set(data.nodes.filter((n) => n.deleted).map((n) => n.id));
  return (
    <div class="graph-lists">
      <section aria-labelledby="graph-nodes">
        <h2 id="graph-nodes">Memories ({data.nodes.length})</h2>
        <ul data-testid="graph-nodes">
          {data.nodes.map((n) => (
            <li key={n.id}>
              {n.deleted ? (
                <span>
                  {excerpt(n.content, 80)} <span class="badge">merged, deleted</span>
                </span>
              ) : (
                <a href={href({ view: "memory", id: n.id })}>{excerpt(n.content, 80)}</a>
              )}
              {n.root && <span class="badge">root</span>}{" "}
              <span class="muted small-text">importance {num(n.importance, 2)}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="graph-edges">
        <h2 id="graph-edges">Relations ({data.edges.length})</h2>
        <ul data-testid="graph-edges">
          {data.edges.map((e) => (
            <li key={`${e.source_id}|${e.target_id}|${e.relation_type}`}>
              <a href={href({ view: "memory", id: e.source_id })}>{label.get(e.source_id)}</a>{" "}
              <strong style={{ color: EDGE_COLOURS[e.relation_type] }}>—{e.relation_type}→</strong>{" "}
              {deleted.has(e.target_id) ? (
                label.get(e.target_id)
              ) : (
                <a href={href({ view: "memory", id: e.target_id })}>{label.get(e.target_id)}</a>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
