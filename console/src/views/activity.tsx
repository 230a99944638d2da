/**
 * The activity screen: the change feed (GET /v1/changes) newest first, followed live with long
 * polls (feed.ts). Each event says what happened, to which memory, in which namespace, who did
 * it and when; a change another wallet made (a grantee writing through a grant, or, in a
 * shared namespace, its owner) is marked as such.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { Api, ChangeEvent, EventKind } from "../api";
import {
  Checkbox,
  type Choice,
  NamespaceOptions,
  SelectField,
  TextField,
} from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { DataTable, DateCell } from "../components/lists";
import { Screen } from "../components/screen";
import { type FeedFilter, type FeedPhase, SHOWN, useFeed } from "../feed";
import { useNamespaceList } from "../namespace-list";
import { href } from "../router";
import type { SharedNamespace } from "../shared";
import { DateTime, ErrorNotice, excerpt, Wallet } from "../ui";

/** Every kind of event and what it says, in the API's order (a kind added there must be here). */
const KIND_TEXT: Record<EventKind, string> = {
  "memory.stored": "stored",
  "memory.merged": "merged",
  "memory.updated": "updated",
  "memory.pinned": "pinned",
  "memory.unpinned": "unpinned",
  "memory.deleted": "deleted",
  "memory.restored": "restored",
  "memory.expired": "expired",
  "memory.moved_out": "moved out of the namespace",
  "memory.replaced": "replaced",
  "relation.added": "relation added",
  "relation.removed": "relation removed",
  "grant.given": "grant given",
  "grant.changed": "grant changed",
  "grant.revoked": "grant revoked",
};

const KINDS: Choice[] = [
  ["", "any"],
  ...Object.entries(KIND_TEXT).map(([kind, text]) => [kind, `${kind} (${text})`] as const),
];

const COLUMNS = ["When", "Event", "Memory", "Namespace", "By"];

const PHASE_TEXT: Record<FeedPhase, string> = {
  loading: "Loading the latest events…",
  live: "Following live: new events appear at the top.",
  paused: "Paused: new events are not fetched.",
  retrying: "The feed did not answer; trying again shortly.",
};

export function ActivityView(props: {
  api: Api;
  shared: SharedNamespace | null;
  /** The signed-in wallet, to tell its own changes from other wallets'. */
  wallet: string;
}) {
  const { api, shared } = props;
  const initial: FeedFilter = { namespace: shared?.namespace ?? "", kind: "" };
  const [filter, setFilter] = useState<FeedFilter>(initial);
  const [draft, setDraft] = useState<FeedFilter>(initial);
  const [live, setLive] = useState(true);
  const feed = useFeed(api, filter, live);
  const namespaces = useNamespaceList(api, shared);
  const me = props.wallet.toLowerCase();

  return (
    <Screen id="activity" title="Activity">
      <p class="muted small-text">
        Every store, edit, pin, deletion, expiry, relation and grant, newest first, as the change
        feed (<code>GET /v1/changes</code>) tells it, including what wallets with a grant wrote.
        Events are kept 30 days.
      </p>
      <Form class="filters" label="Filter activity" onSubmit={() => setFilter(draft)}>
        <TextField
          id="a-namespace"
          label="Namespace"
          list="activity-namespaces"
          value={draft.namespace}
          onValue={(namespace) => setDraft({ ...draft, namespace })}
          {...(shared ? { value: shared.namespace, readOnly: true } : {})}
        >
          <NamespaceOptions id="activity-namespaces" namespaces={namespaces.data?.namespaces} />
        </TextField>
        <SelectField
          id="a-kind"
          label="Kind"
          choices={KINDS}
          value={draft.kind}
          onValue={(kind) => setDraft({ ...draft, kind: kind as EventKind | "" })}
        />
        <Actions>
          <Submit>Apply filters</Submit>
        </Actions>
      </Form>

      <ErrorNotice error={feed.error} context="Could not read the change feed" />
      <div class="list-head">
        <p role="status" aria-live="polite" data-testid="activity-status" data-phase={feed.phase}>
          {PHASE_TEXT[feed.phase]}
        </p>
        <Checkbox checked={live} onChecked={setLive}>
          Follow live
        </Checkbox>
      </div>
      {feed.skipped && (
        <p class="muted small-text" data-testid="activity-skipped">
          The feed holds too many events to read through: earlier ones are not shown, only those
          since this screen opened.
        </p>
      )}
      {feed.events.length === 0 ? (
        feed.phase !== "loading" && <p class="muted">No events yet.</p>
      ) : (
        <DataTable
          wrap
          class="activity"
          testId="activity-table"
          caption={`Activity, newest first (at most ${SHOWN})`}
          columns={COLUMNS}
        >
          {feed.events.map((event) => (
            <EventRow key={event.id} event={event} me={me} shared={shared} />
          ))}
        </DataTable>
      )}
    </Screen>
  );
}

function EventRow(props: { event: ChangeEvent; me: string; shared: SharedNamespace | null }) {
  const { event, me, shared } = props;
  return (
    <tr
      data-event-id={event.id}
      data-kind={event.kind}
      data-memory-id={event.memory_id ?? undefined}
    >
      <DateCell iso={event.at} />
      <td>
        <code>{event.kind}</code>
        <EventDetails event={event} />
      </td>
      <td class="content">
        {event.memory_id ? (
          <MemoryLink id={event.memory_id} content={event.content} />
        ) : (
          <span class="muted">none</span>
        )}
      </td>
      <td>{event.namespace}</td>
      <td>
        <Wallet address={event.created_by} />
        <Writer createdBy={event.created_by} me={me} shared={shared} />
      </td>
    </tr>
  );
}

/** A memory's link: its content when the feed gave it, else its id. */
function MemoryLink({ id, content }: { id: string; content?: string | null }) {
  return (
    <a href={href({ view: "memory", id })} title={id}>
      {content ? excerpt(content, 100) : <code>{id.slice(0, 8)}…</code>}
    </a>
  );
}

/** Marks a change the signed-in wallet did not make: whose it was. */
function Writer(props: { createdBy: string | null; me: string; shared: SharedNamespace | null }) {
  const writer = props.createdBy?.toLowerCase();
  if (!writer || writer === props.me) return null;
  if (props.shared && writer === props.shared.owner) {
    return (
      <span class="badge writer" data-testid="writer" title="The namespace's owner">
        owner
      </span>
    );
  }
  return (
    <span
      class="badge writer grantee"
      data-testid="writer"
      title="Another wallet, writing through a grant"
    >
      grantee
    </span>
  );
}

/** What the event carries besides its kind: fields, relation, replacement, grant, expiry. */
function EventDetails({ event }: { event: ChangeEvent }) {
  const parts: ComponentChildren[] = [];
  if (event.fields && event.fields.length > 0) parts.push(`fields: ${event.fields.join(", ")}`);
  if (event.relation) {
    const other =
      event.relation.source_id === event.memory_id
        ? event.relation.target_id
        : event.relation.source_id;
    parts.push(
      <>
        {event.relation.type} <MemoryLink id={other} />
      </>,
    );
  }
  if (event.superseded_by) {
    parts.push(
      <>
        by <MemoryLink id={event.superseded_by} />
      </>,
    );
  }
  if (event.grant) {
    parts.push(
      <>
        <Wallet address={event.grant.grantee} /> {event.grant.permission}
      </>,
    );
  }
  if (event.expires_at) {
    parts.push(
      <>
        {event.kind === "memory.expired" ? "expired" : "expires"}{" "}
        <DateTime iso={event.expires_at} />
      </>,
    );
  }
  if (event.via) parts.push(`via ${event.via}`);
  if (parts.length === 0) return null;
  return (
    <span class="event-details">
      {parts.map((part, i) => (
        <span key={i}> · {part}</span>
      ))}
    </span>
  );
}
