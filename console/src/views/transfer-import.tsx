/** The import card: JSON or CSV through POST /v1/import, Markdown through POST /v1/migrate, with progress. */
import { useRef, useState } from "preact/hooks";
import { type Api, ApiError } from "../api";
import { type Choice, Field, SelectField, TextField, useField } from "../components/fields";
import { Actions, Form, Submit } from "../components/forms";
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
import { ErrorNotice, Status, useTask } from "../ui";

const FORMATS: Choice[] = [
  ["auto", "from the file name"],
  ["json", "JSON"],
  ["csv", "CSV"],
  ["markdown", "Markdown"],
];

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

/** One import under way: its progress, how it shows it, and whether it was cancelled. */
interface Run {
  state: Progress;
  show: () => void;
  onWait: (seconds: number) => void;
  cancelled: () => boolean;
}

/** Sends the parts a request each until cancelled, adding what each created and skipped. */
async function sendParts<P, A>(
  run: Run,
  parts: P[][],
  send: (part: P[]) => Promise<A>,
  count: (answer: A) => readonly [created: number, skipped: number],
) {
  for (const part of parts) {
    if (run.cancelled()) break;
    const answer = await withRetry(() => send(part), run.onWait, run.cancelled);
    const [created, skipped] = count(answer);
    run.state.imported += created;
    run.state.skipped += skipped;
    run.state.done += part.length;
    run.state.requests++;
    run.show();
  }
}

export function ImportCard({ api }: { api: Api }) {
  const [files, setFiles] = useState<File[]>([]);
  const formatField = useField("auto");
  const format = formatField.value as "auto" | ExportFormat;
  const namespace = useField("");
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState("");
  const task = useTask();
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

  const run = async () => {
    cancelRef.current = false;
    setResult("");
    setMigrateErrors([]);
    setProgress(null);
    const items: ImportItem[] = [];
    const markdown: Array<{ filename: string; content: string }> = [];
    for (const file of files) {
      const text = await file.text();
      const kind = formatOf(file);
      if (kind === "markdown") markdown.push({ filename: file.name, content: text });
      else items.push(...(kind === "json" ? parseJsonImport(text) : parseCsvImport(text)));
    }
    const into = namespace.value.trim();
    if (into) for (const item of items) item.namespace = into;
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
    const current: Run = { state, show, onWait, cancelled: () => cancelRef.current };
    show();
    await sendParts(
      current,
      memoryChunks,
      (memories) => api.post<ImportAnswer>("/v1/import", { memories }),
      (answer) => [answer.imported, answer.skipped],
    );
    const errors: Array<{ filename: string; error: string }> = [];
    await sendParts(
      current,
      fileChunks,
      (part) =>
        api.post<MigrateAnswer>("/v1/migrate", {
          files: part,
          ...(into ? { namespace: into } : {}),
        }),
      (answer) => {
        errors.push(...(answer.errors ?? []));
        return [answer.memories_created, answer.memories_deduplicated];
      },
    );
    setMigrateErrors(errors);
    setResult(
      `${cancelRef.current ? "Cancelled after" : "Done:"} ${state.requests} of ${state.totalRequests} requests. ${state.imported} memories created, ${state.skipped} already there (merged or skipped as duplicates).`,
    );
    if (inputRef.current) inputRef.current.value = "";
    setFiles([]);
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
      <Form onSubmit={() => void task.run(run)}>
        <Field id="i-files" label="Files" width="wide">
          <input
            id="i-files"
            ref={inputRef}
            type="file"
            multiple
            accept=".json,.csv,.md,.markdown,application/json,text/csv,text/markdown"
            onChange={(e) => setFiles([...(e.currentTarget.files ?? [])])}
          />
        </Field>
        <div class="row">
          <SelectField id="i-format" label="Format" choices={FORMATS} {...formatField} />
          <TextField
            id="i-namespace"
            label="Into namespace (empty: as in the file)"
            {...namespace}
          />
        </div>
        <Actions>
          <Submit busy={task.busy} busyText="Importing…" disabled={files.length === 0}>
            Import
          </Submit>
          {task.busy && (
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
        </Actions>
      </Form>
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
      <ErrorNotice error={task.error} context="Import stopped" />
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
