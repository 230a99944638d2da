import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import {
  type Api,
  type HistoryEntry,
  type Memory,
  memoryPath,
  type RelationListItem,
} from "../api";
import { DetailList, IfAny } from "../components/lists";
import { Screen } from "../components/screen";
import { href, navigate } from "../router";
import { canWrite, type SharedNamespace } from "../shared";
import { DateTime, ErrorNotice, num, Status, Tags, tagsOf, useLoad, Wallet } from "../ui";
import { hasReplacements, ReplacementChain, ReplacementNotice, useChain } from "./memory-chain";
import { EditForm } from "./memory-edit";
import { Relations } from "./memory-relations";

interface Loaded {
  memory: Memory;
  history: HistoryEntry[];
  relations: RelationListItem[];
}

export function MemoryView(props: { api: Api; shared: SharedNamespace | null; id: string }) {
  const { api, shared, id } = props;
  const loaded = useLoad(async (signal): Promise<Loaded> => {
    const [memory, history, relations] = await Promise.all([
      api.get<Memory>(memoryPath(id), {}, { signal }),
      api.get<{ history: HistoryEntry[] }>(memoryPath(id, "/history"), {}, { signal }),
      // Relations are the owner's to list and edit; a grantee sees them on the graph.
      shared
        ? { relations: [] }
        : api.get<{ relations: RelationListItem[] }>(memoryPath(id, "/relations"), {}, { signal }),
    ]);
    return { memory, history: history.history, relations: relations.relations };
  }, id);
  const chain = useChain(api, loaded.data?.memory);
  const writable = canWrite(shared);
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
    <Screen
      id="memory"
      title="Memory"
      before={
        <p>
          <a href={href({ view: "memories" })}>← All memories</a>
        </p>
      }
    >
      <ErrorNotice error={loaded.error} context="Could not load this memory" />
      <ErrorNotice error={actionError} />
      <Status>{status}</Status>
      {data && (
        <>
          <ReplacementNotice memory={data.memory} chain={chain.data} />
          <blockquote class="memory-content" data-testid="memory-content">
            {data.memory.content}
          </blockquote>
          <div class="actions">
            {/* The core endpoints: free, and they work on immutable memories too. Pinning is
                the owner's alone: no grant opens it. */}
            {!shared && (
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
            )}
            <a class="button secondary" href={href({ view: "graph", id })}>
              Show relation graph
            </a>
            {writable && (
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
            )}
          </div>
          <Details memory={data.memory} />
          {hasReplacements(data.memory) && <ReplacementChain id={id} state={chain} />}
          {writable ? (
            <EditForm
              key={data.memory.updated_at ?? ""}
              memory={data.memory}
              onSave={(changes) =>
                act("Saved. A history entry was written.", () => api.patch(memoryPath(id), changes))
              }
            />
          ) : (
            <p class="muted" data-testid="read-only">
              Your grant on this namespace is read only: its owner can let you edit and delete.
            </p>
          )}
          {shared ? (
            <p class="muted small-text">
              Relations are edited by the memory's owner; the relation graph shows those among the
              namespaces shared with you.
            </p>
          ) : (
            <Relations api={api} id={id} relations={data.relations} act={act} />
          )}
          <History history={data.history} />
        </>
      )}
    </Screen>
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
    ["Occurred", <DateTime key="o" iso={memory.occurred_at} />],
    ["Expires", memory.expires_at ? <DateTime key="e" iso={memory.expires_at} /> : "never"],
    ["Created", <DateTime key="c" iso={memory.created_at} />],
    ["Updated", <DateTime key="u" iso={memory.updated_at} />],
    ["Stored by", <Wallet key="by" address={memory.created_by} />],
    ["Last accessed", <DateTime key="a" iso={memory.accessed_at} />],
    ["Access count", String(memory.access_count)],
    ["Embedding model", memory.embedding_model ?? "unknown"],
  ];
  return <DetailList class="details" rows={rows} />;
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

/** The history: an entry for each edit, with the fields it changed. */
function History({ history }: { history: HistoryEntry[] }) {
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <IfAny items={history} none="No changes yet: only edits (PATCH) write history entries.">
        <ol class="history" data-testid="history">
          {history.map((h) => (
            <li key={h.id}>
              <DateTime iso={h.created_at} /> by <Wallet address={h.created_by} />
              <DetailList
                rows={Object.entries(h.changes).map(([field, value]) => [
                  field,
                  <code key={field}>
                    {typeof value === "string" ? value : JSON.stringify(value)}
                  </code>,
                ])}
              />
            </li>
          ))}
        </ol>
      </IfAny>
    </section>
  );
}
