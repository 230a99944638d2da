/** How the query screen shows each answer: recall with its signals, search hits, the context block. */
import type { RecalledMemory, SearchHit } from "../api";
import { DataTable } from "../components/lists";
import { href } from "../router";
import { RECALL_SIGNALS } from "../signals";
import { DateTime, excerpt, num, Tags, Wallet } from "../ui";

export interface RecallAnswer {
  memories: RecalledMemory[];
  query_tokens: number;
}
export interface SearchAnswer {
  memories: SearchHit[];
  total: number;
}
export interface ContextAnswer {
  context: unknown;
  memories_used: number;
  tokens: number;
}

function signalColumns(memories: RecalledMemory[]): string[] {
  const seen = new Set<string>();
  for (const m of memories) for (const key of Object.keys(m._signals ?? {})) seen.add(key);
  const known = RECALL_SIGNALS.filter((k) => seen.has(k));
  return [...known, ...[...seen].filter((k) => !RECALL_SIGNALS.includes(k))];
}

export function RecallResults({ body }: { body: RecallAnswer }) {
  const columns = signalColumns(body.memories);
  return (
    <section aria-labelledby="recall-results" class="results">
      <h2 id="recall-results">
        {body.memories.length} recalled (query: {body.query_tokens} tokens)
      </h2>
      <p class="muted formula">
        score = (0.55·vector + 0.25·keyword + 0.20·recency) · context_importance · access_boost ·
        type_decay, where access_boost = min(1 + 0.1·access_count, 2). Each recall counts as an
        access of the memories it returns.
      </p>
      {body.memories.length > 0 && (
        <DataTable
          wrap
          class="signals"
          testId="recall-table"
          caption="Recalled memories with their signals"
          columns={[
            "#",
            "Memory",
            "Score",
            ...columns.map((c) => c.replaceAll("_", " ")),
            "access boost",
          ]}
        >
          {body.memories.map((m, i) => (
            <tr key={m.id} data-memory-id={m.id}>
              <td class="num">{i + 1}</td>
              <td class="content">
                <a href={href({ view: "memory", id: m.id })}>{excerpt(m.content, 120)}</a>
                <span class="muted small-text">
                  {" "}
                  {m.memory_type}
                  {m.pinned ? ", pinned" : ""}, accessed {m.access_count}×, stored by{" "}
                  <Wallet address={m.created_by} />
                </span>
              </td>
              <td class="num score" data-signal="score">
                {num(m.similarity, 4)}
              </td>
              {columns.map((c) => (
                <td class="num" key={c} data-signal={c}>
                  {c === "relation_count"
                    ? String(m._signals?.[c] ?? "–")
                    : num(m._signals?.[c], 4)}
                </td>
              ))}
              <td class="num" data-signal="access_boost">
                {num(Math.min(1 + 0.1 * m.access_count, 2), 2)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

export function SearchResults({ body }: { body: SearchAnswer }) {
  return (
    <section aria-labelledby="search-results" class="results">
      <h2 id="search-results">
        {body.total} match{body.total === 1 ? "" : "es"}
      </h2>
      <ol class="hits" data-testid="search-results">
        {body.memories.map((m) => (
          <li key={m.id}>
            <a href={href({ view: "memory", id: m.id })}>{excerpt(m.content, 200)}</a>
            <div class="muted small-text">
              {m.memory_type} · importance {num(m.importance, 2)} · {m.namespace} ·{" "}
              <DateTime iso={m.created_at} /> · stored by <Wallet address={m.created_by} />
            </div>
            <Tags tags={m.tags} />
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ContextResult({ body }: { body: ContextAnswer }) {
  const text =
    typeof body.context === "string" ? body.context : JSON.stringify(body.context, null, 2);
  return (
    <section aria-labelledby="context-results" class="results">
      <h2 id="context-results">
        Context: {body.memories_used} memories, about {body.tokens} tokens
      </h2>
      <pre class="context" data-testid="context-block">
        {text}
      </pre>
    </section>
  );
}
