import { useState } from "preact/hooks";
import type { Api } from "../api";
import {
  FractionField,
  SelectField,
  TextAreaField,
  TextField,
  useField,
} from "../components/fields";
import { Form, Submit } from "../components/forms";
import { Screen } from "../components/screen";
import type { SharedNamespace } from "../shared";
import { ErrorNotice, splitList, useTask } from "../ui";
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

const FORMATS = ["text", "structured"];

export function QueryView({ api, shared }: { api: Api; shared: SharedNamespace | null }) {
  const [mode, setMode] = useState<Mode>("recall");
  const query = useField("");
  // In a shared namespace every query stays in it: the grant names that one namespace.
  const namespace = useField(shared?.namespace ?? "");
  const sessionId = useField("");
  const agentId = useField("");
  const tags = useField("");
  const limit = useField("10");
  const minSimilarity = useField("0");
  const format = useField("text");
  const maxTokens = useField("4000");
  const [answer, setAnswer] = useState<Answer | null>(null);
  const task = useTask();

  const scope = {
    ...(namespace.value ? { namespace: namespace.value } : {}),
    ...(sessionId.value ? { session_id: sessionId.value } : {}),
    ...(agentId.value ? { agent_id: agentId.value } : {}),
  };
  const tagList = splitList(tags.value);

  const ask = async (): Promise<Answer> => {
    if (mode === "recall") {
      const body = await api.post<RecallAnswer>("/v1/recall", {
        query: query.value,
        limit: Number(limit.value),
        min_similarity: Number(minSimilarity.value),
        ...scope,
        ...(tagList.length > 0 ? { filters: { tags: tagList } } : {}),
      });
      return { mode, body };
    }
    if (mode === "search") {
      const body = await api.post<SearchAnswer>("/v1/search", {
        query: query.value,
        limit: Number(limit.value),
        ...scope,
        ...(tagList.length > 0 ? { tags: tagList } : {}),
      });
      return { mode, body };
    }
    const body = await api.post<ContextAnswer>("/v1/context", {
      ...(query.value.trim() ? { query: query.value } : {}),
      max_memories: Number(limit.value),
      max_tokens: Number(maxTokens.value),
      format: format.value,
      ...scope,
    });
    return { mode, body };
  };

  const current = MODES.find((m) => m.mode === mode);
  return (
    <Screen id="query" title="Recall & search">
      <Form class="query" onSubmit={() => void task.run(async () => setAnswer(await ask()))}>
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
                  task.setError(null);
                }}
              />
              {m.label}
            </label>
          ))}
          <p class="muted">{current?.hint}</p>
        </fieldset>
        <TextAreaField
          id="q-query"
          label={`Query${mode === "context" ? " (optional: without one, pinned and important first)" : ""}`}
          rows={2}
          required={mode !== "context"}
          {...query}
        />
        <div class="row">
          <TextField
            id="q-limit"
            label={mode === "context" ? "Max memories" : "Results"}
            type="number"
            min={1}
            max={100}
            {...limit}
          />
          {mode === "recall" && (
            <FractionField id="q-min" label="Minimum score" step={0.001} {...minSimilarity} />
          )}
          {mode === "context" && (
            <>
              <SelectField id="q-format" label="Format" choices={FORMATS} {...format} />
              <TextField
                id="q-tokens"
                label="Max tokens"
                type="number"
                min={100}
                max={16000}
                {...maxTokens}
              />
            </>
          )}
          <TextField id="q-namespace" label="Namespace" readOnly={shared !== null} {...namespace} />
          <TextField id="q-session" label="Session" {...sessionId} />
          <TextField id="q-agent" label="Agent" {...agentId} />
          {mode !== "context" && <TextField id="q-tags" label="Tags (any of)" {...tags} />}
        </div>
        <Submit busy={task.busy} busyText="Running…">
          {current?.label ?? "Run"}
        </Submit>
      </Form>
      <ErrorNotice error={task.error} />
      {answer?.mode === "recall" && <RecallResults body={answer.body} />}
      {answer?.mode === "search" && <SearchResults body={answer.body} />}
      {answer?.mode === "context" && <ContextResult body={answer.body} />}
    </Screen>
  );
}
