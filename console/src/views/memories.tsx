import { useState } from "preact/hooks";
import { type Api, MEMORY_TYPES, type MemoryPage } from "../api";
import {
  Checkbox,
  type Choice,
  NamespaceOptions,
  SelectField,
  TextField,
} from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { DataTable, DateCell, WalletCell } from "../components/lists";
import { Screen } from "../components/screen";
import { useNamespaceList } from "../namespace-list";
import { href } from "../router";
import type { SharedNamespace } from "../shared";
import { ErrorNotice, excerpt, num, Tags, tagsOf, useLoad } from "../ui";

export interface ListFilters {
  namespace: string;
  tags: string;
  memory_type: string;
  session_id: string;
  agent_id: string;
  /** "" any, "true" pinned only, "false" unpinned only */
  pinned: string;
  /** Replaced memories too (`include_superseded`), each marked. */
  include_superseded: boolean;
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
  include_superseded: false,
  sort: "created_at",
  order: "desc",
  limit: 20,
  offset: 0,
};

const TYPES: Choice[] = [["", "any"], ...MEMORY_TYPES];
const PINNED: Choice[] = [
  ["", "any"],
  ["true", "pinned only"],
  ["false", "not pinned"],
];
const SORTS: Choice[] = [
  "created_at",
  "updated_at",
  "accessed_at",
  "importance",
  "access_count",
].map((s) => [s, s.replace("_", " ")]);
const ORDERS: Choice[] = [
  ["desc", "descending"],
  ["asc", "ascending"],
];
const PAGE_SIZES: Choice[] = [10, 20, 50, 100];
const COLUMNS = [
  "Content",
  "Importance",
  "Type",
  "Tags",
  "Namespace",
  "Created",
  "Accessed",
  "Accesses",
  "Stored by",
];

export function MemoriesView(props: {
  api: Api;
  shared: SharedNamespace | null;
  filters: ListFilters;
  setFilters: (f: ListFilters) => void;
}) {
  const { api, shared, filters, setFilters } = props;
  const [draft, setDraft] = useState(filters);
  // A shared namespace is the one the grant names: the list stays in it.
  const namespace = shared ? shared.namespace : filters.namespace;
  const page = useLoad(
    (signal) =>
      api.get<MemoryPage>(
        "/v1/memories",
        {
          ...filters,
          namespace,
          tags: filters.tags.replace(/\s*,\s*/g, ","),
          include_superseded: filters.include_superseded || undefined,
        },
        { signal },
      ),
    JSON.stringify(filters),
  );
  const namespaces = useNamespaceList(api, shared);

  /** New filters load a new page; the same ones load it again (e.g. after a store elsewhere). */
  const apply = (next: ListFilters) => {
    setDraft(next);
    if (JSON.stringify(next) === JSON.stringify(filters)) page.reload();
    else setFilters(next);
  };
  /** The value of a filter field and where its changes go, for the field's props. */
  const bind = (field: Exclude<keyof ListFilters, "offset" | "include_superseded">) => ({
    value: String(draft[field]),
    onValue: (value: string) =>
      setDraft({ ...draft, [field]: field === "limit" ? Number(value) : value }),
  });

  const data = page.data;
  const from = data && data.total > 0 ? data.offset + 1 : 0;
  const to = data ? data.offset + data.memories.length : 0;

  return (
    <Screen id="memories" title="Memories">
      <Form class="filters" label="Filter memories" onSubmit={() => apply({ ...draft, offset: 0 })}>
        <TextField
          id="f-namespace"
          label="Namespace"
          list="namespace-options"
          {...bind("namespace")}
          {...(shared ? { value: shared.namespace, readOnly: true } : {})}
        >
          <NamespaceOptions id="namespace-options" namespaces={namespaces.data?.namespaces} />
        </TextField>
        <TextField id="f-tags" label="Tags (any of, comma-separated)" {...bind("tags")} />
        <SelectField id="f-type" label="Type" choices={TYPES} {...bind("memory_type")} />
        <TextField id="f-session" label="Session" {...bind("session_id")} />
        <TextField id="f-agent" label="Agent" {...bind("agent_id")} />
        <SelectField id="f-pinned" label="Pinned" choices={PINNED} {...bind("pinned")} />
        <SelectField id="f-sort" label="Sort by" choices={SORTS} {...bind("sort")} />
        <SelectField id="f-order" label="Order" choices={ORDERS} {...bind("order")} />
        <SelectField id="f-limit" label="Per page" choices={PAGE_SIZES} {...bind("limit")} />
        <Actions>
          <Submit>Apply filters</Submit>
          <button type="button" class="secondary" onClick={() => apply(initialFilters)}>
            Reset
          </button>
        </Actions>
      </Form>

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
        <Checkbox
          checked={filters.include_superseded}
          onChecked={(on) => {
            // A toggle: it applies at once, and keeps the filters being edited.
            setDraft({ ...draft, include_superseded: on });
            setFilters({ ...filters, include_superseded: on, offset: 0 });
          }}
        >
          Show replaced
        </Checkbox>
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
        <DataTable
          wrap
          class="memories"
          testId="memory-table"
          caption={`Memories, ${data.total} in all`}
          columns={COLUMNS}
        >
          {data.memories.map((m) => (
            <tr key={m.id} data-memory-id={m.id} class={m.superseded_by ? "replaced" : undefined}>
              <td class="content">
                {m.superseded_by && (
                  <span class="badge replaced" title="A newer memory replaced this one: history">
                    replaced
                  </span>
                )}
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
              <DateCell iso={m.created_at} />
              <DateCell iso={m.accessed_at} />
              <td class="num">{m.access_count}</td>
              <WalletCell address={m.created_by} />
            </tr>
          ))}
        </DataTable>
      )}
    </Screen>
  );
}
