/**
 * Lists and their states: what a loaded section shows (its error, then its data), the note
 * for an empty list, tables with a caption and column headers (and a loaded list as one), the
 * cells of a date and of a wallet, and label/value lists.
 * Imports Preact and ../ui (the error notice, the Loaded state, dates, wallets); nothing from
 * views/.
 */
import type { ComponentChildren } from "preact";
import { DateTime, ErrorNotice, type Loaded, Wallet } from "../ui";

/** The load's error if it failed, and `children(data)` once there is data. */
export function WhenLoaded<T>(props: {
  state: Loaded<T>;
  /** What could not be done, before the error (e.g. "Could not load this memory"). */
  context?: string;
  children: (data: T) => ComponentChildren;
}) {
  const { data, error } = props.state;
  return (
    <>
      <ErrorNotice error={error} context={props.context} />
      {data !== undefined && props.children(data)}
    </>
  );
}

/** `children` when there are items, else a muted line that says there are none. */
export function IfAny(props: {
  items: readonly unknown[];
  none: ComponentChildren;
  children: ComponentChildren;
}) {
  return props.items.length === 0 ? <p class="muted">{props.none}</p> : props.children;
}

interface TableProps {
  caption: ComponentChildren;
  columns: readonly ComponentChildren[];
  /** A last column, after `columns`, for each row's buttons: its header is for screen readers. */
  actions?: boolean;
  class?: string;
  testId?: string;
  wrap?: boolean;
  children: ComponentChildren;
}

/**
 * A table with a caption for screen readers and a header row; its rows are the children.
 * `wrap` puts it in a box that scrolls sideways on narrow screens.
 */
export function DataTable(props: TableProps) {
  const table = (
    <table class={props.class} data-testid={props.testId}>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column, i) => (
            <th scope="col" key={i}>
              {column}
            </th>
          ))}
          {props.actions && (
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
  return props.wrap ? <div class="table-wrap">{table}</div> : table;
}

/**
 * A loaded list as a table: the load's error, then, once loaded, the note that there are none
 * or the table with `row(item)` (a <tr> with its key) for each item.
 */
export function LoadedTable<Item>(
  props: Omit<TableProps, "children"> & {
    state: Loaded<readonly Item[]>;
    /** What could not be done, before the error (e.g. "Could not list your grants"). */
    context?: string;
    none: ComponentChildren;
    row: (item: Item) => ComponentChildren;
  },
) {
  const { state, context, none, row, ...table } = props;
  return (
    <WhenLoaded state={state} context={context}>
      {(items) => (
        <IfAny items={items} none={none}>
          <DataTable {...table}>{items.map((item) => row(item))}</DataTable>
        </IfAny>
      )}
    </WhenLoaded>
  );
}

/** A table cell with a date and time (DateTime). */
export function DateCell({ iso }: { iso: string | null | undefined }) {
  return (
    <td>
      <DateTime iso={iso} />
    </td>
  );
}

/** A table cell with a wallet address (Wallet). */
export function WalletCell({ address }: { address: string | null | undefined }) {
  return (
    <td>
      <Wallet address={address} />
    </td>
  );
}

/** Labels and their values, each pair in a <div> of a <dl>. */
export function DetailList(props: {
  rows: ReadonlyArray<readonly [string, ComponentChildren]>;
  class?: string;
  testId?: string;
}) {
  return (
    <dl class={props.class} data-testid={props.testId}>
      {props.rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
