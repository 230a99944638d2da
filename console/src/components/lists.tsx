/**
 * Lists and their states: what a loaded section shows (its error, then its data), the note
 * for an empty list, tables with a caption and column headers, and label/value lists.
 * Imports Preact and ../ui (the error notice, the Loaded state); nothing from views/.
 */
import type { ComponentChildren } from "preact";
import { ErrorNotice, type Loaded } from "../ui";

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

/**
 * A table with a caption for screen readers and a header row; its rows are the children.
 * `wrap` puts it in a box that scrolls sideways on narrow screens.
 */
export function DataTable(props: {
  caption: ComponentChildren;
  columns: readonly ComponentChildren[];
  class?: string;
  testId?: string;
  wrap?: boolean;
  children: ComponentChildren;
}) {
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
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
  return props.wrap ? <div class="table-wrap">{table}</div> : table;
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
