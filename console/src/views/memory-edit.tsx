/** The memory screen's edit form: a PATCH of the fields that changed, which writes a history entry. */
import { useState } from "preact/hooks";
import { MEMORY_TYPES, type Memory } from "../api";
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
  const [content, setContent] = useState(memory.content);
  const [importance, setImportance] = useState(String(memory.importance));
  const [type, setType] = useState(memory.memory_type);
  const [namespace, setNamespace] = useState(memory.namespace);
  const [tags, setTags] = useState(startTags);
  const [metaText, setMetaText] = useState(startMetaText);
  const [problem, setProblem] = useState("");
  const [saving, setSaving] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem("");
    const changes: Record<string, unknown> = {};
    if (content !== memory.content) changes.content = content;
    if (Number(importance) !== memory.importance) changes.importance = Number(importance);
    if (type !== memory.memory_type) changes.memory_type = type;
    if (namespace !== memory.namespace) changes.namespace = namespace;
    if (metaText !== startMetaText) {
      try {
        const parsed: unknown = JSON.parse(metaText || "{}");
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
    if (tags !== startTags || "metadata" in changes) changes.tags = splitList(tags);
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
    <form class="edit" onSubmit={submit} aria-labelledby="edit-title">
      <h2 id="edit-title">Edit</h2>
      {locked && <p class="muted">This memory is immutable: it cannot be changed.</p>}
      <fieldset disabled={locked || saving}>
        <legend class="visually-hidden">Fields of this memory</legend>
        <div class="field wide">
          <label for="e-content">Content</label>
          <textarea
            id="e-content"
            rows={4}
            maxLength={8192}
            value={content}
            onInput={(e) => setContent(e.currentTarget.value)}
          />
        </div>
        <div class="row">
          <div class="field">
            <label for="e-importance">Importance (0–1)</label>
            <input
              id="e-importance"
              type="number"
              min={0}
              max={1}
              step={0.01}
              value={importance}
              onInput={(e) => setImportance(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="e-type">Type</label>
            <select id="e-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
              {MEMORY_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="e-namespace">Namespace</label>
            <input
              id="e-namespace"
              value={namespace}
              onInput={(e) => setNamespace(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="e-tags">Tags (comma-separated)</label>
            <input id="e-tags" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
          </div>
        </div>
        <div class="field wide">
          <label for="e-metadata">Metadata (JSON object, without tags)</label>
          <textarea
            id="e-metadata"
            rows={3}
            class="mono"
            value={metaText}
            onInput={(e) => setMetaText(e.currentTarget.value)}
          />
        </div>
        <button type="submit">{saving ? "Saving…" : "Save changes"}</button>
        {problem && (
          <p class="notice error" role="alert">
            {problem}
          </p>
        )}
      </fieldset>
    </form>
  );
}
