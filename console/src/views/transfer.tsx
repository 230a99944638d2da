import { useEffect, useState } from "preact/hooks";
import type { Api } from "../api";
import {
  EXPORT_EXTENSION,
  EXPORT_MIME,
  EXPORT_PAGE,
  type ExportFormat,
  joinExportPages,
} from "../transfer";
import { ErrorNotice, Status } from "../ui";
import { ImportCard } from "./transfer-import";

interface ExportAnswer {
  format: ExportFormat;
  memories: unknown;
  count: number;
}

interface ExportFile {
  url: string;
  name: string;
  count: number;
  preview: string;
}

export function TransferView({ api }: { api: Api }) {
  return (
    <section aria-labelledby="transfer-title">
      <h1 id="transfer-title" tabIndex={-1}>
        Import &amp; export
      </h1>
      <div class="cards">
        <ExportCard api={api} />
        <ImportCard api={api} />
      </div>
    </section>
  );
}

function ExportCard({ api }: { api: Api }) {
  const [format, setFormat] = useState<ExportFormat>("json");
  const [namespace, setNamespace] = useState("");
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [file, setFile] = useState<ExportFile | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);

  const run = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFile(null);
    try {
      const pages: unknown[] = [];
      let count = 0;
      for (let offset = 0; ; offset += EXPORT_PAGE) {
        const page = await api.get<ExportAnswer>("/v1/export", {
          format,
          namespace,
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
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <form onSubmit={run}>
        <div class="row">
          <div class="field">
            <label for="x-format">Format</label>
            <select
              id="x-format"
              value={format}
              onChange={(e) => setFormat(e.currentTarget.value as ExportFormat)}
            >
              <option value="json">JSON (re-importable)</option>
              <option value="csv">CSV (re-importable)</option>
              <option value="markdown">Markdown</option>
            </select>
          </div>
          <div class="field">
            <label for="x-namespace">Namespace (empty: all)</label>
            <input
              id="x-namespace"
              value={namespace}
              onInput={(e) => setNamespace(e.currentTarget.value)}
            />
          </div>
        </div>
        <label class="checkbox">
          <input
            type="checkbox"
            checked={includeDeleted}
            onChange={(e) => setIncludeDeleted(e.currentTarget.checked)}
          />
          Include deleted memories
        </label>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? "Exporting…" : "Export"}
          </button>
        </div>
      </form>
      <ErrorNotice error={error} context="Export failed" />
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
