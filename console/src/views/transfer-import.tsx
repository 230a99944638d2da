/** The import card: JSON or CSV through POST /v1/import, Markdown through POST /v1/migrate, with progress. */
import { useRef, useState } from "preact/hooks";
import { type Api, ApiError } from "../api";
import {
  chunk,
  type ExportFormat,
  formatOfFile,
  IMPORT_CHUNK,
  type ImportItem,
  MIGRATE_CHUNK,
  parseCsvImport,
  parseJsonImport,
} from "../transfer";
import { ErrorNotice, Status } from "../ui";

interface Progress {
  done: number;
  total: number;
  requests: number;
  totalRequests: number;
  unit: "memories" | "files";
  imported: number;
  skipped: number;
  waiting: string;
}

interface ImportAnswer {
  imported: number;
  skipped: number;
}

interface MigrateAnswer {
  memories_created: number;
  memories_deduplicated: number;
  errors?: Array<{ filename: string; error: string }>;
}

/** Waits out a 429 or 503 as the API's Retry-After says, at most 3 times a request. */
async function withRetry<T>(
  send: () => Promise<T>,
  onWait: (seconds: number) => void,
  cancelled: () => boolean,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const retryable =
        err instanceof ApiError && (err.status === 429 || err.status === 503) && attempt < 3;
      if (!retryable || cancelled()) throw err;
      const seconds = Math.min(err.retryAfter ?? 5, 60);
      onWait(seconds);
      await new Promise((r) => setTimeout(r, seconds * 1000));
      onWait(0);
    }
  }
}

export function ImportCard({ api }: { api: Api }) {
  const [files, setFiles] = useState<File[]>([]);
  const [format, setFormat] = useState<"auto" | ExportFormat>("auto");
  const [namespace, setNamespace] = useState("");
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState("");
  const [busy, setBusy] = useState(false);
  const [migrateErrors, setMigrateErrors] = useState<Array<{ filename: string; error: string }>>(
    [],
  );
  const cancelRef = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const formatOf = (file: File): ExportFormat => {
    if (format !== "auto") return format;
    const guessed = formatOfFile(file.name);
    if (!guessed) throw new Error(`${file.name}: unknown file type (choose a format)`);
    return guessed;
  };

  const run = async (event: Event) => {
    event.preventDefault();
    cancelRef.current = false;
    setBusy(true);
    setError(null);
    setResult("");
    setMigrateErrors([]);
    setProgress(null);
    try {
      const items: ImportItem[] = [];
      const markdown: Array<{ filename: string; content: string }> = [];
      for (const file of files) {
        const text = await file.text();
        const kind = formatOf(file);
        if (kind === "markdown") markdown.push({ filename: file.name, content: text });
        else items.push(...(kind === "json" ? parseJsonImport(text) : parseCsvImport(text)));
      }
      if (namespace.trim()) for (const item of items) item.namespace = namespace.trim();
      const memoryChunks = chunk(items, IMPORT_CHUNK);
      const fileChunks = chunk(markdown, MIGRATE_CHUNK);
      const state: Progress = {
        done: 0,
        total: items.length + markdown.length,
        requests: 0,
        totalRequests: memoryChunks.length + fileChunks.length,
        unit: markdown.length > 0 && items.length === 0 ? "files" : "memories",
        imported: 0,
        skipped: 0,
        waiting: "",
      };
      const show = () => setProgress({ ...state });
      const onWait = (s: number) => {
        state.waiting = s > 0 ? `Rate limited: waiting ${s} s` : "";
        show();
      };
      show();
      for (const part of memoryChunks) {
        if (cancelRef.current) break;
        const answer = await withRetry(
          () => api.post<ImportAnswer>("/v1/import", { memories: part }),
          onWait,
          () => cancelRef.current,
        );
        state.imported += answer.imported;
        state.skipped += answer.skipped;
        state.done += part.length;
        state.requests++;
        show();
      }
      const errors: Array<{ filename: string; error: string }> = [];
      for (const part of fileChunks) {
        if (cancelRef.current) break;
        const answer = await withRetry(
          () =>
            api.post<MigrateAnswer>("/v1/migrate", {
              files: part,
              ...(namespace.trim() ? { namespace: namespace.trim() } : {}),
            }),
          onWait,
          () => cancelRef.current,
        );
        state.imported += answer.memories_created;
        state.skipped += answer.memories_deduplicated;
        state.done += part.length;
        state.requests++;
        errors.push(...(answer.errors ?? []));
        show();
      }
      setMigrateErrors(errors);
      setResult(
        `${cancelRef.current ? "Cancelled after" : "Done:"} ${state.requests} of ${state.totalRequests} requests. ${state.imported} memories created, ${state.skipped} already there (merged or skipped as duplicates).`,
      );
      if (inputRef.current) inputRef.current.value = "";
      setFiles([]);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const pct =
    progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <section class="card" aria-labelledby="import-title">
      <h2 id="import-title">Import</h2>
      <p class="muted small-text">
        JSON or CSV (an export of this console or of <code>GET /v1/export</code>) goes to{" "}
        <code>POST /v1/import</code>, {IMPORT_CHUNK} memories a request (free). Markdown files go to{" "}
        <code>POST /v1/migrate</code>, {MIGRATE_CHUNK} files a request, one memory per{" "}
        <code>##</code> section (a paid call per request). Memories already stored are merged, not
        duplicated.
      </p>
      <form onSubmit={run}>
        <div class="field wide">
          <label for="i-files">Files</label>
          <input
            id="i-files"
            ref={inputRef}
            type="file"
            multiple
            accept=".json,.csv,.md,.markdown,application/json,text/csv,text/markdown"
            onChange={(e) => setFiles([...(e.currentTarget.files ?? [])])}
          />
        </div>
        <div class="row">
          <div class="field">
            <label for="i-format">Format</label>
            <select
              id="i-format"
              value={format}
              onChange={(e) => setFormat(e.currentTarget.value as "auto" | ExportFormat)}
            >
              <option value="auto">from the file name</option>
              <option value="json">JSON</option>
              <option value="csv">CSV</option>
              <option value="markdown">Markdown</option>
            </select>
          </div>
          <div class="field">
            <label for="i-namespace">Into namespace (empty: as in the file)</label>
            <input
              id="i-namespace"
              value={namespace}
              onInput={(e) => setNamespace(e.currentTarget.value)}
            />
          </div>
        </div>
        <div class="actions">
          <button type="submit" disabled={busy || files.length === 0}>
            {busy ? "Importing…" : "Import"}
          </button>
          {busy && (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                cancelRef.current = true;
              }}
            >
              Cancel
            </button>
          )}
        </div>
      </form>
      {progress && (
        <div class="progress" data-testid="import-progress">
          <label for="import-bar">
            {progress.done} of {progress.total} {progress.unit} ({progress.requests} of{" "}
            {progress.totalRequests} requests)
          </label>
          <progress id="import-bar" max={100} value={pct}>
            {pct}%
          </progress>
          {progress.waiting && <p class="muted">{progress.waiting}</p>}
        </div>
      )}
      <ErrorNotice error={error} context="Import stopped" />
      {result && <Status>{result}</Status>}
      {migrateErrors.length > 0 && (
        <ul class="notice error" aria-label="Files that failed">
          {migrateErrors.map((e) => (
            <li key={e.filename}>
              {e.filename}: {e.error}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
