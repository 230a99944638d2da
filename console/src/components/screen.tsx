/**
 * A screen of the console: a section named by its heading, the page's one <h1>, which takes the
 * focus when the screen opens (main.tsx) so that keyboard and screen-reader users start there.
 * Imports only Preact; nothing from views/.
 */
import type { ComponentChildren } from "preact";

export function Screen(props: {
  /** The screen's name in ids: its heading is `<id>-title`. */
  id: string;
  title: ComponentChildren;
  class?: string;
  /** What comes before the heading (e.g. a link back). */
  before?: ComponentChildren;
  children: ComponentChildren;
}) {
  const titleId = `${props.id}-title`;
  return (
    <section class={props.class} aria-labelledby={titleId}>
      {props.before}
      <h1 id={titleId} tabIndex={-1}>
        {props.title}
      </h1>
      {props.children}
    </section>
  );
}
