import { useState } from "preact/hooks";
import type { Api } from "../api";
import { ErrorNotice, splitList } from "../ui";
import {
  type ContextAnswer,
  ContextResult,
  type RecallAnswer,
  RecallResults,
  type SearchAnswer,
  SearchResults,
} from "./query-results";

type Mode = "recall" | "search" | "context";

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
