import { useState } from "preact/hooks";
import { type Api, MEMORY_TYPES, type MemoryPage } from "../api";
import { href } from "../router";
import { DateTime, ErrorNotice, excerpt, num, Tags, tagsOf, useLoad } from "../ui";

export interface ListFilters {
  namespace: string;
  tags: string;
  memory_type: string;
  session_id: string;
  agent_id: string;
  /** "" any, "true" pinned only, "false" unpinned only */
  pinned: string;
  sort: string;
  order: string;
  limit: number;
  offset: number;
}

export const initialFilters: ListFilters = {
  namespace: "",
  tags: "",
  memory_type: "",
  session_id: "",
  agent_id: "",
  pinned: "",
  sort: "created_at",
  order: "desc",
  limit: 20,
  offset: 0,
};

const SORTS = ["created_at", "updated_at", "accessed_at", "importance", "access_count"];

interface Namespaces {
  namespaces: Array<{ name: string; count: number }>;
}

export function MemoriesView(props: {
  api: Api;
  filters: ListFilters;
  setFilters: (f: ListFilters) => void;
}) {
  const { api, filters, setFilters } = props;
  const [draft, setDraft] = useState(filters);
  const page = useLoad(
    (signal) =>
      api.get<MemoryPage>(
        "/v1/memories",
        { ...filters, tags: filters.tags.replace(/\s*,\s*/g, ",") },
        { signal },
      ),
    JSON.stringify(filters),
  );
  const namespaces = useLoad((signal) => api.get<Namespaces>("/v1/namespaces", {}, { signal }), "");

  /** New filters load a new page; the same ones load it again (e.g. after a store elsewhere). */
  const apply = (next: ListFilters) => {
    setDraft(next);
    if (JSON.stringify(next) === JSON.stringify(filters)) page.reload();
    else setFilters(next);
  };
  const set = (field: keyof ListFilters) => (event: Event) => {
    const target = event.currentTarget as HTMLInputElement | HTMLSelectElement;
    setDraft({ ...draft, [field]: field === "limit" ? Number(target.value) : target.value });
  };

  const data = page.data;
  const from = data && data.total > 0 ? data.offset + 1 : 0;
  const to = data ? data.offset + data.memories.length : 0;

  return (
    <section aria-labelledby="memories-title">
      <h1 id="memories-title" tabIndex={-1}>
        Memories
      </h1>
      <form
        class="filters"
        aria-label="Filter memories"
        onSubmit={(event) => {
          event.preventDefault();
          apply({ ...draft, offset: 0 });
        }}
      >
        <div class="field">
          <label for="f-namespace">Namespace</label>
          <input
            id="f-namespace"
            list="namespace-options"
            value={draft.namespace}
            onInput={set("namespace")}
          />
          <datalist id="namespace-options">
            {namespaces.data?.namespaces.map((n) => (
              <option key={n.name} value={n.name}>{`${n.name} (${n.count})`}</option>
            ))}
          </datalist>
        </div>
        <div class="field">
          <label for="f-tags">Tags (any of, comma-separated)</label>
          <input id="f-tags" value={draft.tags} onInput={set("tags")} />
        </div>
        <div class="field">
          <label for="f-type">Type</label>
          <select id="f-type" value={draft.memory_type} onChange={set("memory_type")}>
            <option value="">any</option>
            {MEMORY_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-session">Session</label>
          <input id="f-session" value={draft.session_id} onInput={set("session_id")} />
        </div>
        <div class="field">
          <label for="f-agent">Agent</label>
          <input id="f-agent" value={draft.agent_id} onInput={set("agent_id")} />
        </div>
        <div class="field">
          <label for="f-pinned">Pinned</label>
          <select id="f-pinned" value={draft.pinned} onChange={set("pinned")}>
            <option value="">any</option>
            <option value="true">pinned only</option>
            <option value="false">not pinned</option>
          </select>
        </div>
        <div class="field">
          <label for="f-sort">Sort by</label>
          <select id="f-sort" value={draft.sort} onChange={set("sort")}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {s.replace("_", " ")}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-order">Order</label>
          <select id="f-order" value={draft.order} onChange={set("order")}>
            <option value="desc">descending</option>
            <option value="asc">ascending</option>
          </select>
        </div>
        <div class="field">
          <label for="f-limit">Per page</label>
          <select id="f-limit" value={String(draft.limit)} onChange={set("limit")}>
            {[10, 20, 50, 100].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <button type="button" class="secondary" onClick={() => apply(initialFilters)}>
            Reset
          </button>
        </div>
      </form>

      <ErrorNotice error={page.error} context="Could not list memories" />
      <div class="list-head">
        <p role="status" aria-live="polite" data-testid="list-summary">
          {page.loading
            ? "Loading…"
            : data
              ? data.total === 0
                ? "No memories match."
                : `Showing ${from}–${to} of ${data.total}`
              : ""}
        </p>
        <div class="pager">
          <button
            type="button"
            class="secondary"
            disabled={!data || filters.offset === 0}
            onClick={() =>
              apply({ ...filters, offset: Math.max(0, filters.offset - filters.limit) })
            }
          >
            Previous page
          </button>
          <button
            type="button"
            class="secondary"
            disabled={!data || to >= data.total}
            onClick={() => apply({ ...filters, offset: filters.offset + filters.limit })}
          >
            Next page
          </button>
        </div>
      </div>

      {data && data.memories.length > 0 && (
        <div class="table-wrap">
          <table class="memories" data-testid="memory-table">
            <caption class="visually-hidden">Memories, {data.total} in all</caption>
            <thead>
              <tr>
                <th scope="col">Content</th>
                <th scope="col">Importance</th>
                <th scope="col">Type</th>
                <th scope="col">Tags</th>
                <th scope="col">Namespace</th>
                <th scope="col">Created</th>
                <th scope="col">Accessed</th>
                <th scope="col">Accesses</th>
              </tr>
            </thead>
            <tbody>
              {data.memories.map((m) => (
                <tr key={m.id} data-memory-id={m.id}>
                  <td class="content">
                    {m.pinned && (
                      <span class="badge" title="Pinned: exempt from decay">
                        pinned
                      </span>
                    )}
                    <a href={href({ view: "memory", id: m.id })}>{excerpt(m.content, 140)}</a>
                  </td>
                  <td class="num">{num(m.importance, 2)}</td>
                  <td>{m.memory_type}</td>
                  <td>
                    <Tags tags={tagsOf(m)} />
                  </td>
                  <td>{m.namespace}</td>
                  <td>
                    <DateTime iso={m.created_at} />
                  </td>
                  <td>
                    <DateTime iso={m.accessed_at} />
                  </td>
                  <td class="num">{m.access_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
