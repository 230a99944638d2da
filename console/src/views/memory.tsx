import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import {
  type Api,
  type HistoryEntry,
  MEMORY_TYPES,
  type Memory,
  memoryPath,
  RELATION_TYPES,
  type RelationListItem,
} from "../api";
import { href, navigate } from "../router";
import {
  DateTime,
  ErrorNotice,
  excerpt,
  num,
  Status,
  splitList,
  Tags,
  tagsOf,
  useLoad,
} from "../ui";

interface Loaded {
  memory: Memory;
  history: HistoryEntry[];
  relations: RelationListItem[];
}

export function MemoryView({ api, id }: { api: Api; id: string }) {
  const loaded = useLoad(async (signal): Promise<Loaded> => {
    const [memory, history, relations] = await Promise.all([
      api.get<Memory>(memoryPath(id), {}, { signal }),
      api.get<{ history: HistoryEntry[] }>(memoryPath(id, "/history"), {}, { signal }),
      api.get<{ relations: RelationListItem[] }>(memoryPath(id, "/relations"), {}, { signal }),
    ]);
    return { memory, history: history.history, relations: relations.relations };
  }, id);
  const [status, setStatus] = useState("");
  const [actionError, setActionError] = useState<unknown>(null);

  /** Runs a change, then reloads the memory, its history and relations. */
  const act = async (done: string, change: () => Promise<unknown>) => {
    setActionError(null);
    setStatus("");
    try {
      await change();
      setStatus(done);
      loaded.reload();
    } catch (err) {
      setActionError(err);
    }
  };

  const data = loaded.data;
  return (
    <section aria-labelledby="memory-title">
      <p>
        <a href={href({ view: "memories" })}>← All memories</a>
      </p>
      <h1 id="memory-title" tabIndex={-1}>
        Memory
      </h1>
      <ErrorNotice error={loaded.error} context="Could not load this memory" />
      <ErrorNotice error={actionError} />
      <Status>{status}</Status>
      {data && (
        <>
          <blockquote class="memory-content" data-testid="memory-content">
            {data.memory.content}
          </blockquote>
          <div class="actions">
            {/* The core endpoints: free, and they work on immutable memories too. */}
            <button
              type="button"
              onClick={() =>
                data.memory.pinned
                  ? act("Unpinned.", () =>
                      api.delete(`/v1/memories/core/${encodeURIComponent(id)}`),
                    )
                  : act("Pinned.", () => api.post("/v1/memories/core", { memory_id: id }))
              }
            >
              {data.memory.pinned ? "Unpin" : "Pin"}
            </button>
            <a class="button secondary" href={href({ view: "graph", id })}>
              Show relation graph
            </a>
            <DeleteButton
              disabled={data.memory.immutable === true}
              onDelete={async () => {
                setActionError(null);
                try {
                  await api.delete(memoryPath(id));
                  navigate({ view: "memories" });
                } catch (err) {
                  setActionError(err);
                }
              }}
            />
          </div>
          <Details memory={data.memory} />
          <EditForm
            key={data.memory.updated_at ?? ""}
            memory={data.memory}
            onSave={(changes) =>
              act("Saved. A history entry was written.", () => api.patch(memoryPath(id), changes))
            }
          />
          <Relations api={api} id={id} relations={data.relations} act={act} />
          <History history={data.history} />
        </>
      )}
    </section>
  );
}

function Details({ memory }: { memory: Memory }) {
  const rows: Array<[string, ComponentChildren]> = [
    ["Id", <code key="id">{memory.id}</code>],
    ["Namespace", memory.namespace],
    ["Type", memory.memory_type],
    ["Importance", num(memory.importance, 3)],
    ["Tags", <Tags key="tags" tags={tagsOf(memory)} />],
    ["Session", memory.session_id ?? "none"],
    ["Agent", memory.agent_id ?? "none"],
    ["Pinned", memory.pinned ? "yes" : "no"],
    ["Immutable", memory.immutable ? "yes (cannot be edited or deleted)" : "no"],
    ["Expires", memory.expires_at ? <DateTime key="e" iso={memory.expires_at} /> : "never"],
    ["Created", <DateTime key="c" iso={memory.created_at} />],
    ["Updated", <DateTime key="u" iso={memory.updated_at} />],
    ["Last accessed", <DateTime key="a" iso={memory.accessed_at} />],
    ["Access count", String(memory.access_count)],
    ["Embedding model", memory.embedding_model ?? "unknown"],
  ];
  return (
    <dl class="details">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function DeleteButton({ disabled, onDelete }: { disabled: boolean; onDelete: () => void }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" class="danger" disabled={disabled} onClick={() => setConfirming(true)}>
        Delete…
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend class="visually-hidden">Confirm deletion</legend>
      <span>Delete this memory?</span>
      <button type="button" class="danger" onClick={onDelete}>
        Yes, delete it
      </button>
      <button type="button" class="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </fieldset>
  );
}

/** The edit form: only the fields that changed are sent (PATCH /v1/memories/:id). */
function EditForm({
  memory,
  onSave,
}: {
  memory: Memory;
  onSave: (changes: Record<string, unknown>) => Promise<void>;
}) {
  const startTags = tagsOf(memory).join(", ");
  const { tags: _tags, ...startMeta } = memory.metadata ?? {};
  const startMetaText = JSON.stringify(startMeta, null, 2);
  const [content, setContent] = useState(memory.content);
  const [importance, setImportance] = useState(String(memory.importance));
  const [type, setType] = useState(memory.memory_type);
  const [namespace, setNamespace] = useState(memory.namespace);
  const [tags, setTags] = useState(startTags);
  const [metaText, setMetaText] = useState(startMetaText);
  const [problem, setProblem] = useState("");
  const [saving, setSaving] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem("");
    const changes: Record<string, unknown> = {};
    if (content !== memory.content) changes.content = content;
    if (Number(importance) !== memory.importance) changes.importance = Number(importance);
    if (type !== memory.memory_type) changes.memory_type = type;
    if (namespace !== memory.namespace) changes.namespace = namespace;
    if (metaText !== startMetaText) {
      try {
        const parsed: unknown = JSON.parse(metaText || "{}");
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
          setProblem("Metadata must be a JSON object.");
          return;
        }
        changes.metadata = parsed;
      } catch {
        setProblem("Metadata is not valid JSON.");
        return;
      }
    }
    // Metadata replaces the whole object, tags included, unless tags are sent too.
    if (tags !== startTags || "metadata" in changes) changes.tags = splitList(tags);
    if (Object.keys(changes).length === 0) {
      setProblem("Nothing changed.");
      return;
    }
    setSaving(true);
    await onSave(changes);
    setSaving(false);
  };

  const locked = memory.immutable === true;
  return (
    <form class="edit" onSubmit={submit} aria-labelledby="edit-title">
      <h2 id="edit-title">Edit</h2>
      {locked && <p class="muted">This memory is immutable: it cannot be changed.</p>}
      <fieldset disabled={locked || saving}>
        <legend class="visually-hidden">Fields of this memory</legend>
        <div class="field wide">
          <label for="e-content">Content</label>
          <textarea
            id="e-content"
            rows={4}
            maxLength={8192}
            value={content}
            onInput={(e) => setContent(e.currentTarget.value)}
          />
        </div>
        <div class="row">
          <div class="field">
            <label for="e-importance">Importance (0–1)</label>
            <input
              id="e-importance"
              type="number"
              min={0}
              max={1}
              step={0.01}
              value={importance}
              onInput={(e) => setImportance(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="e-type">Type</label>
            <select id="e-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
              {MEMORY_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="e-namespace">Namespace</label>
            <input
              id="e-namespace"
              value={namespace}
              onInput={(e) => setNamespace(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="e-tags">Tags (comma-separated)</label>
            <input id="e-tags" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
          </div>
        </div>
        <div class="field wide">
          <label for="e-metadata">Metadata (JSON object, without tags)</label>
          <textarea
            id="e-metadata"
            rows={3}
            class="mono"
            value={metaText}
            onInput={(e) => setMetaText(e.currentTarget.value)}
          />
        </div>
        <button type="submit">{saving ? "Saving…" : "Save changes"}</button>
        {problem && (
          <p class="notice error" role="alert">
            {problem}
          </p>
        )}
      </fieldset>
    </form>
  );
}

function Relations(props: {
  api: Api;
  id: string;
  relations: RelationListItem[];
  act: (done: string, change: () => Promise<unknown>) => Promise<void>;
}) {
  const { api, id, relations, act } = props;
  const [target, setTarget] = useState("");
  const [type, setType] = useState<string>("related_to");
  return (
    <section aria-labelledby="relations-title">
      <h2 id="relations-title">Relations</h2>
      {relations.length === 0 ? (
        <p class="muted">No relations.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Relations of this memory</caption>
          <thead>
            <tr>
              <th scope="col">Direction</th>
              <th scope="col">Type</th>
              <th scope="col">Other memory</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {relations.map((r) => {
              const other = r.direction === "outgoing" ? r.target_id : r.source_id;
              return (
                <tr key={r.id}>
                  <td>{r.direction === "outgoing" ? "this →" : "→ this"}</td>
                  <td>{r.relation_type}</td>
                  <td>
                    {r.memory?.deleted ? (
                      <span>
                        {excerpt(r.memory.content, 80)} <span class="badge">deleted</span>
                      </span>
                    ) : (
                      <a href={href({ view: "memory", id: other })}>
                        {r.memory ? excerpt(r.memory.content, 80) : other}
                      </a>
                    )}
                  </td>
                  <td>
                    <DateTime iso={r.created_at} />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="secondary small"
                      onClick={() =>
                        act("Relation removed.", () =>
                          api.delete(memoryPath(id, `/relations/${encodeURIComponent(r.id)}`)),
                        )
                      }
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <form
        class="row"
        aria-label="Add a relation"
        onSubmit={(event) => {
          event.preventDefault();
          void act("Relation added.", () =>
            api.post(memoryPath(id, "/relations"), {
              target_id: target.trim(),
              relation_type: type,
            }),
          ).then(() => setTarget(""));
        }}
      >
        <div class="field">
          <label for="r-type">Relation (this memory → target)</label>
          <select id="r-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {RELATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="field grow">
          <label for="r-target">Target memory id</label>
          <input
            id="r-target"
            value={target}
            spellcheck={false}
            onInput={(e) => setTarget(e.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" disabled={target.trim() === ""}>
            Add relation
          </button>
        </div>
      </form>
    </section>
  );
}

function History({ history }: { history: HistoryEntry[] }) {
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {history.length === 0 ? (
        <p class="muted">No changes yet: only edits (PATCH) write history entries.</p>
      ) : (
        <ol class="history" data-testid="history">
          {history.map((h) => (
            <li key={h.id}>
              <DateTime iso={h.created_at} />
              <dl>
                {Object.entries(h.changes).map(([field, value]) => (
                  <div key={field}>
                    <dt>{field}</dt>
                    <dd>
                      <code>{typeof value === "string" ? value : JSON.stringify(value)}</code>
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
