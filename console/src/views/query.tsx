import { useState } from "preact/hooks";
import type { Api, RecalledMemory, SearchHit } from "../api";
import { href } from "../router";
import { DateTime, ErrorNotice, excerpt, num, splitList, Tags } from "../ui";

type Mode = "recall" | "search" | "context";

interface RecallAnswer {
  memories: RecalledMemory[];
  query_tokens: number;
}
interface SearchAnswer {
  memories: SearchHit[];
  total: number;
}
interface ContextAnswer {
  context: unknown;
  memories_used: number;
  tokens: number;
}

type Answer =
  | { mode: "recall"; body: RecallAnswer }
  | { mode: "search"; body: SearchAnswer }
  | { mode: "context"; body: ContextAnswer };

const MODES: Array<{ mode: Mode; label: string; hint: string }> = [
  {
    mode: "recall",
    label: "Recall",
    hint: "Ranked by meaning and keywords, with every signal behind the score (a paid call).",
  },
  { mode: "search", label: "Full-text search", hint: "Keyword search, no embedding (free)." },
  {
    mode: "context",
    label: "Context block",
    hint: "The prompt-ready block an agent would get (a paid call).",
  },
];

/** The signals in the order the README's scoring table explains them. */
const SIGNAL_ORDER = [
  "vector",
  "keyword",
  "recency",
  "base_importance",
  "effective_importance",
  "context_importance",
  "relation_count",
  "type_decay",
];

export function QueryView({ api }: { api: Api }) {
  const [mode, setMode] = useState<Mode>("recall");
  const [query, setQuery] = useState("");
  const [namespace, setNamespace] = useState("");
  const [sessionId, setSessionId] = useState("");
  const [agentId, setAgentId] = useState("");
  const [tags, setTags] = useState("");
  const [limit, setLimit] = useState("10");
  const [minSimilarity, setMinSimilarity] = useState("0");
  const [format, setFormat] = useState("text");
  const [maxTokens, setMaxTokens] = useState("4000");
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const scope = {
    ...(namespace ? { namespace } : {}),
    ...(sessionId ? { session_id: sessionId } : {}),
    ...(agentId ? { agent_id: agentId } : {}),
  };
  const tagList = splitList(tags);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mode === "recall") {
        const body = await api.post<RecallAnswer>("/v1/recall", {
          query,
          limit: Number(limit),
          min_similarity: Number(minSimilarity),
          ...scope,
          ...(tagList.length > 0 ? { filters: { tags: tagList } } : {}),
        });
        setAnswer({ mode, body });
      } else if (mode === "search") {
        const body = await api.post<SearchAnswer>("/v1/search", {
          query,
          limit: Number(limit),
          ...scope,
          ...(tagList.length > 0 ? { tags: tagList } : {}),
        });
        setAnswer({ mode, body });
      } else {
        const body = await api.post<ContextAnswer>("/v1/context", {
          ...(query.trim() ? { query } : {}),
          max_memories: Number(limit),
          max_tokens: Number(maxTokens),
          format,
          ...scope,
        });
        setAnswer({ mode, body });
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const current = MODES.find((m) => m.mode === mode);
  return (
    <section aria-labelledby="query-title">
      <h1 id="query-title" tabIndex={-1}>
        Recall &amp; search
      </h1>
      <form onSubmit={submit} class="query">
        <fieldset class="modes">
          <legend>What to run</legend>
          {MODES.map((m) => (
            <label key={m.mode} class="radio">
              <input
                type="radio"
                name="mode"
                value={m.mode}
                checked={mode === m.mode}
                onChange={() => {
                  setMode(m.mode);
                  setAnswer(null);
                  setError(null);
                }}
              />
              {m.label}
            </label>
          ))}
          <p class="muted">{current?.hint}</p>
        </fieldset>
        <div class="field wide">
          <label for="q-query">
            Query{mode === "context" ? " (optional: without one, pinned and important first)" : ""}
          </label>
          <textarea
            id="q-query"
            rows={2}
            required={mode !== "context"}
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </div>
        <div class="row">
          <div class="field">
            <label for="q-limit">{mode === "context" ? "Max memories" : "Results"}</label>
            <input
              id="q-limit"
              type="number"
              min={1}
              max={100}
              value={limit}
              onInput={(e) => setLimit(e.currentTarget.value)}
            />
          </div>
          {mode === "recall" && (
            <div class="field">
              <label for="q-min">Minimum score</label>
              <input
                id="q-min"
                type="number"
                min={0}
                max={1}
                step={0.001}
                value={minSimilarity}
                onInput={(e) => setMinSimilarity(e.currentTarget.value)}
              />
            </div>
          )}
          {mode === "context" && (
            <>
              <div class="field">
                <label for="q-format">Format</label>
                <select
                  id="q-format"
                  value={format}
                  onChange={(e) => setFormat(e.currentTarget.value)}
                >
                  <option value="text">text</option>
                  <option value="structured">structured</option>
                </select>
              </div>
              <div class="field">
                <label for="q-tokens">Max tokens</label>
                <input
                  id="q-tokens"
                  type="number"
                  min={100}
                  max={16000}
                  value={maxTokens}
                  onInput={(e) => setMaxTokens(e.currentTarget.value)}
                />
              </div>
            </>
          )}
          <div class="field">
            <label for="q-namespace">Namespace</label>
            <input
              id="q-namespace"
              value={namespace}
              onInput={(e) => setNamespace(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="q-session">Session</label>
            <input
              id="q-session"
              value={sessionId}
              onInput={(e) => setSessionId(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="q-agent">Agent</label>
            <input
              id="q-agent"
              value={agentId}
              onInput={(e) => setAgentId(e.currentTarget.value)}
            />
          </div>
          {mode !== "context" && (
            <div class="field">
              <label for="q-tags">Tags (any of)</label>
              <input id="q-tags" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
            </div>
          )}
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Running…" : (current?.label ?? "Run")}
        </button>
      </form>
      <ErrorNotice error={error} />
      {answer?.mode === "recall" && <RecallResults body={answer.body} />}
      {answer?.mode === "search" && <SearchResults body={answer.body} />}
      {answer?.mode === "context" && <ContextResult body={answer.body} />}
    </section>
  );
}

function signalColumns(memories: RecalledMemory[]): string[] {
  const seen = new Set<string>();
  for (const m of memories) for (const key of Object.keys(m._signals ?? {})) seen.add(key);
  const known = SIGNAL_ORDER.filter((k) => seen.has(k));
  return [...known, ...[...seen].filter((k) => !SIGNAL_ORDER.includes(k))];
}

function RecallResults({ body }: { body: RecallAnswer }) {
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
        <div class="table-wrap">
          <table class="signals" data-testid="recall-table">
            <caption class="visually-hidden">Recalled memories with their signals</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Memory</th>
                <th scope="col">Score</th>
                {columns.map((c) => (
                  <th scope="col" key={c}>
                    {c.replaceAll("_", " ")}
                  </th>
                ))}
                <th scope="col">access boost</th>
              </tr>
            </thead>
            <tbody>
              {body.memories.map((m, i) => (
                <tr key={m.id} data-memory-id={m.id}>
                  <td class="num">{i + 1}</td>
                  <td class="content">
                    <a href={href({ view: "memory", id: m.id })}>{excerpt(m.content, 120)}</a>
                    <span class="muted small-text">
                      {" "}
                      {m.memory_type}
                      {m.pinned ? ", pinned" : ""}, accessed {m.access_count}×
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
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SearchResults({ body }: { body: SearchAnswer }) {
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
              <DateTime iso={m.created_at} />
            </div>
            <Tags tags={m.tags} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function ContextResult({ body }: { body: ContextAnswer }) {
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
