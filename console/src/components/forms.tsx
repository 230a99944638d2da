/**
 * Forms and their buttons: a form that stays on the page when submitted, the row of buttons
 * under it, and a submit button that says when its work is under way. Imports only Preact;
 * nothing from views/.
 */
import type { ComponentChildren } from "preact";

/** A <form> whose submit runs `onSubmit` instead of loading a page. */
export function Form(props: {
  onSubmit: () => void;
  class?: string;
  label?: string;
  labelledBy?: string;
  children: ComponentChildren;
}) {
  return (
    <form
      class={props.class}
      aria-label={props.label}
      aria-labelledby={props.labelledBy}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
    </form>
  );
}

/** The row of buttons of a form or a screen. */
export function Actions({ children }: { children: ComponentChildren }) {
  return <div class="actions">{children}</div>;
}

/** A submit button, disabled while `busy`, its text then `busyText` (e.g. "Loading…"). */
export function Submit(props: {
  busy?: boolean;
  busyText?: string;
  disabled?: boolean;
  class?: string;
  children: ComponentChildren;
}) {
  const busy = props.busy === true;
  return (
    <button type="submit" class={props.class} disabled={busy || props.disabled}>
      {busy && props.busyText ? props.busyText : props.children}
    </button>
  );
}
