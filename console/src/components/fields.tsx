/**
 * Labelled form fields: one label and one control in the `.field` wrapper (text and number
 * inputs, selects, text areas), checkboxes with their label around them, and the state of a
 * field (useField). Each control hands its new value to `onValue`. Imports only Preact;
 * nothing from views/.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";

/** A field's text and where its edits go, in the shape the fields below take. */
export interface FieldState {
  value: string;
  onValue: (value: string) => void;
}

/** The state of one field: spread it into the field (`{...limit}`), read it as `limit.value`. */
export function useField(initial: string): FieldState {
  const [value, onValue] = useState(initial);
  return { value, onValue };
}

/** How a field sits in its row: full width, or taking up the free space. */
type Width = "wide" | "grow";

/** The wrapper alone, for a control the fields below do not cover (e.g. a file input). */
export function Field(props: {
  id: string;
  label: ComponentChildren;
  width?: Width;
  children: ComponentChildren;
}) {
  return (
    <div class={props.width ? `field ${props.width}` : "field"}>
      <label for={props.id}>{props.label}</label>
      {props.children}
    </div>
  );
}

interface Labelled extends FieldState {
  id: string;
  label: ComponentChildren;
  width?: Width;
}

/** A text input, or with `type="number"` a number input. */
export function TextField(
  props: Labelled & {
    type?: "number";
    min?: number;
    max?: number;
    step?: number;
    required?: boolean;
    spellcheck?: boolean;
    /** Shown but fixed, e.g. the namespace of a shared namespace being shown. */
    readOnly?: boolean;
    /** The id of a <datalist>, passed as children, that suggests values. */
    list?: string;
    /** After the input, inside the wrapper (a datalist). */
    children?: ComponentChildren;
  },
) {
  const { id, label, value, onValue, width, children, type, list, ...rest } = props;
  // A text input may have suggestions (list); a number input has its type.
  const kind = type ? { type } : { list };
  return (
    <Field id={id} label={label} width={width}>
      <input
        id={id}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        {...kind}
        {...rest}
      />
      {children}
    </Field>
  );
}

/** A number from `min` (0 unless said) to 1: an importance, a similarity, a score. */
export function FractionField(props: Labelled & { min?: number; step?: number }) {
  const { min = 0, step = 0.01, ...rest } = props;
  return <TextField type="number" min={min} max={1} step={step} {...rest} />;
}

/** A text area, full width unless said. */
export function TextAreaField(
  props: Labelled & { rows: number; required?: boolean; maxLength?: number; mono?: boolean },
) {
  const { id, label, value, onValue, width = "wide", mono, ...rest } = props;
  return (
    <Field id={id} label={label} width={width}>
      <textarea
        id={id}
        class={mono ? "mono" : undefined}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        {...rest}
      />
    </Field>
  );
}

/** A choice of a select: its value, shown as is, or a value and the text shown for it. */
export type Choice = string | number | readonly [value: string, text: string];

export function SelectField(props: Labelled & { choices: readonly Choice[] }) {
  const { id, label, value, onValue, width, choices } = props;
  return (
    <Field id={id} label={label} width={width}>
      <select id={id} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
        {choices.map((choice) => {
          const [v, text] = typeof choice === "object" ? choice : [String(choice), choice];
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </Field>
  );
}

/** A checkbox inside its label (class `checkbox`), with no `.field` wrapper. */
export function Checkbox(props: {
  checked: boolean;
  onChecked: (checked: boolean) => void;
  children: ComponentChildren;
}) {
  return (
    <label class="checkbox">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChecked(e.currentTarget.checked)}
      />
      {props.children}
    </label>
  );
}

/** The suggestions of a namespace field (its `list`): the namespaces with their counts. */
export function NamespaceOptions(props: {
  id: string;
  namespaces: ReadonlyArray<{ name: string; count: number }> | undefined;
}) {
  return (
    <datalist id={props.id}>
      {props.namespaces?.map((n) => (
        <option key={n.name} value={n.name}>{`${n.name} (${n.count})`}</option>
      ))}
    </datalist>
  );
}
