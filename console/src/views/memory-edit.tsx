/** The memory screen's edit form: a PATCH of the fields that changed, which writes a history entry. */
import { useState } from "preact/hooks";
import { MEMORY_TYPES, type Memory } from "../api";
import {
  FractionField,
  SelectField,
  TextAreaField,
  TextField,
  useField,
} from "../components/fields";
import { Form, Submit } from "../components/forms";
import { splitList, tagsOf } from "../ui";

export function EditForm({
  memory,
  onSave,
}: {
  memory: Memory;
  onSave: (changes: Record<string, unknown>) => Promise<void>;
}) {
  const startTags = tagsOf(memory).join(", ");
  const { tags: _tags, ...startMeta } = memory.metadata ?? {};
  const startMetaText = JSON.stringify(startMeta, null, 2);
  const content = useField(memory.content);
  const importance = useField(String(memory.importance));
  const type = useField(memory.memory_type);
  const namespace = useField(memory.namespace);
  const tags = useField(startTags);
  const metaText = useField(startMetaText);
  const [problem, setProblem] = useState("");
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    setProblem("");
    const changes: Record<string, unknown> = {};
    if (content.value !== memory.content) changes.content = content.value;
    const newImportance = Number(importance.value);
    if (newImportance !== memory.importance) changes.importance = newImportance;
    if (type.value !== memory.memory_type) changes.memory_type = type.value;
    if (namespace.value !== memory.namespace) changes.namespace = namespace.value;
    if (metaText.value !== startMetaText) {
      try {
        const parsed: unknown = JSON.parse(metaText.value || "{}");
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
    if (tags.value !== startTags || "metadata" in changes) changes.tags = splitList(tags.value);
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
    <Form class="edit" onSubmit={() => void submit()} labelledBy="edit-title">
      <h2 id="edit-title">Edit</h2>
      {locked && <p class="muted">This memory is immutable: it cannot be changed.</p>}
      <fieldset disabled={locked || saving}>
        <legend class="visually-hidden">Fields of this memory</legend>
        <TextAreaField id="e-content" label="Content" rows={4} maxLength={8192} {...content} />
        <div class="row">
          <FractionField id="e-importance" label="Importance (0–1)" {...importance} />
          <SelectField id="e-type" label="Type" choices={MEMORY_TYPES} {...type} />
          <TextField id="e-namespace" label="Namespace" {...namespace} />
          <TextField id="e-tags" label="Tags (comma-separated)" {...tags} />
        </div>
        <TextAreaField
          id="e-metadata"
          label="Metadata (JSON object, without tags)"
          rows={3}
          mono
          {...metaText}
        />
        <Submit busy={saving} busyText="Saving…">
          Save changes
        </Submit>
        {problem && (
          <p class="notice error" role="alert">
            {problem}
          </p>
        )}
      </fieldset>
    </Form>
  );
}
