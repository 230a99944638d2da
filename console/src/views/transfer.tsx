import { useEffect, useState } from "preact/hooks";
import type { Api } from "../api";
import { Checkbox, type Choice, SelectField, TextField, useField } from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
import { Screen } from "../components/screen";
import type { SharedNamespace } from "../shared";
import {
  EXPORT_EXTENSION,
  EXPORT_MIME,
  EXPORT_PAGE,
  type ExportFormat,
  joinExportPages,
} from "../transfer";
import { ErrorNotice, Status, useTask } from "../ui";
import { ImportCard } from "./transfer-import";

interface ExportAnswer {
  format: ExportFormat;
  memories: unknown;
  count: number;
}

const FORMATS: Choice[] = [
  ["json", "JSON (re-importable)"],
  ["csv", "CSV (re-importable)"],
  ["markdown", "Markdown"],
];

interface ExportFile {
  url: string;
  name: string;
  count: number;
  preview: string;
}

export function TransferView({ api, shared }: { api: Api; shared: SharedNamespace | null }) {
  return (
    <Screen id="transfer" title="Import & export">
      <div class="cards">
        <ExportCard api={api} shared={shared} />
        {/* Import writes into the wallet's own memories only: no grant opens it. */}
        {shared ? (
          <p class="muted" data-testid="owner-only">
            Import is for your own memories: go back to them to import.
          </p>
        ) : (
          <ImportCard api={api} />
        )}
      </div>
    </Screen>
  );
}

function ExportCard({ api, shared }: { api: Api; shared: SharedNamespace | null }) {
  const formatField = useField("json");
  const format = formatField.value as ExportFormat;
  // A shared namespace exports only itself: the grant names that one.
  const namespace = useField(shared?.namespace ?? "");
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [file, setFile] = useState<ExportFile | null>(null);
  const task = useTask();

  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);

  const run = async () => {
    setFile(null);
    const pages: unknown[] = [];
    let count = 0;
    for (let offset = 0; ; offset += EXPORT_PAGE) {
      const page = await api.get<ExportAnswer>("/v1/export", {
        format,
        namespace: namespace.value,
        include_deleted: includeDeleted ? "true" : undefined,
        limit: EXPORT_PAGE,
        offset,
      });
      pages.push(page.memories);
      count += page.count;
      if (page.count < EXPORT_PAGE) break;
    }
    const text = joinExportPages(format, pages, count);
    const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "-");
    setFile({
      url: URL.createObjectURL(new Blob([text], { type: EXPORT_MIME[format] })),
      name: `memories-${stamp}.${EXPORT_EXTENSION[format]}`,
      count,
      preview: text.length > 1500 ? `${text.slice(0, 1500)}\n…` : text,
    });
  };

  return (
    <section class="card" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <Form onSubmit={() => void task.run(run)}>
        <div class="row">
          <SelectField id="x-format" label="Format" choices={FORMATS} {...formatField} />
          <TextField
            id="x-namespace"
            label={shared ? "Namespace" : "Namespace (empty: all)"}
            readOnly={shared !== null}
            {...namespace}
          />
        </div>
        <Checkbox checked={includeDeleted} onChecked={setIncludeDeleted}>
          Include deleted memories
        </Checkbox>
        <Actions>
          <Submit busy={task.busy} busyText="Exporting…">
            Export
          </Submit>
        </Actions>
      </Form>
      <ErrorNotice error={task.error} context="Export failed" />
      {file && (
        <div class="export-result">
          <Status>
            Exported {file.count} memor{file.count === 1 ? "y" : "ies"}.
          </Status>
          <a class="button" href={file.url} download={file.name} data-testid="export-download">
            Download {file.name}
          </a>
          <details>
            <summary>Preview</summary>
            <pre class="preview">{file.preview}</pre>
          </details>
        </div>
      )}
    </section>
  );
}
