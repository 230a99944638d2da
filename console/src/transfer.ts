/**
 * Import and export files, as pure functions (no DOM), so Node tests can run them too.
 *   JSON      an array of memories, or an object with a `memories` array (what GET /v1/export
 *             and the console's export write)
 *   CSV       RFC 4180 with a header row; the export's columns (tags joined by ";", metadata
 *             as JSON); only `content` is required
 *   Markdown  files sent as they are to POST /v1/migrate (one memory per `##` section)
 */

/** One memory as POST /v1/import takes it. */
export interface ImportItem {
  content: string;
  namespace?: string;
  memory_type?: string;
  importance?: number;
  tags?: string[];
  metadata?: Record<string, unknown>;
  session_id?: string;
  agent_id?: string;
  pinned?: boolean;
  immutable?: boolean;
  expires_at?: string;
}

export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportFileError";
  }
}

/** POST /v1/import takes up to 1,000; smaller requests give a progress bar that moves. */
export const IMPORT_CHUNK = 100;
/** POST /v1/migrate takes up to 50 files a request. */
export const MIGRATE_CHUNK = 50;
/** GET /v1/export answers up to 10,000 memories a page. */
export const EXPORT_PAGE = 10_000;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const text = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v : undefined;

/**
 * The storable fields of an exported memory (ids, timestamps and counters are the service's
 * own). An expiry already past is dropped: the service refuses to store one.
 */
export function toImportItem(
  record: Record<string, unknown>,
  where: string,
  now = Date.now(),
): ImportItem {
  const content = record.content;
  if (typeof content !== "string" || content.trim() === "") {
    throw new ImportFileError(`${where}: no content`);
  }
  const item: ImportItem = { content };
  const namespace = text(record.namespace);
  if (namespace) item.namespace = namespace;
  const type = text(record.memory_type);
  if (type) item.memory_type = type;
  if (typeof record.importance === "number") item.importance = record.importance;
  const session = text(record.session_id);
  if (session) item.session_id = session;
  const agent = text(record.agent_id);
  if (agent) item.agent_id = agent;
  if (typeof record.pinned === "boolean") item.pinned = record.pinned;
  if (typeof record.immutable === "boolean") item.immutable = record.immutable;
  const expires = text(record.expires_at);
  if (expires && Date.parse(expires) > now) item.expires_at = expires;

  const metadata = isRecord(record.metadata) ? { ...record.metadata } : {};
  const metaTags = metadata.tags;
  delete metadata.tags;
  if (Object.keys(metadata).length > 0) item.metadata = metadata;
  const tags = new Set<string>();
  for (const list of [record.tags, metaTags]) {
    if (Array.isArray(list)) for (const t of list) if (typeof t === "string" && t) tags.add(t);
  }
  if (tags.size > 0) item.tags = [...tags];
  return item;
}

export function parseJsonImport(source: string): ImportItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (err) {
    throw new ImportFileError(`Not valid JSON: ${err instanceof Error ? err.message : err}`);
  }
  const list = Array.isArray(parsed)
    ? parsed
    : isRecord(parsed) && Array.isArray(parsed.memories)
      ? parsed.memories
      : null;
  if (!list) {
    throw new ImportFileError(
      "Expected an array of memories or an object with a `memories` array (a JSON export)",
    );
  }
  return list.map((entry, i) => {
    if (!isRecord(entry)) throw new ImportFileError(`memory ${i + 1}: not an object`);
    return toImportItem(entry, `memory ${i + 1}`);
  });
}

/** RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    if (!(row.length === 1 && row[0] === "")) rows.push(row);
    row = [];
  };
  for (; i < source.length; i++) {
    const ch = source[i];
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === "") {
      quoted = true;
    } else if (ch === ",") {
      endField();
    } else if (ch === "\r" || ch === "\n") {
      if (ch === "\r" && source[i + 1] === "\n") i++;
      endRow();
    } else {
      field += ch;
    }
  }
  if (quoted) throw new ImportFileError("CSV: a quoted field is not closed");
  if (field !== "" || row.length > 0) endRow();
  return rows;
}

/** The export guards a cell that a spreadsheet would run as a formula with a leading '. */
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

export function parseCsvImport(source: string): ImportItem[] {
  const [header, ...rows] = parseCsv(source);
  if (!header) throw new ImportFileError("CSV: the file is empty");
  const columns = header.map((h) => h.trim().toLowerCase());
  if (!columns.includes("content")) throw new ImportFileError("CSV: no `content` column");
  return rows.map((cells, r) => {
    const where = `CSV row ${r + 2}`;
    const record: Record<string, unknown> = {};
    columns.forEach((column, c) => {
      const cell = unguard(cells[c] ?? "");
      if (cell === "") return;
      switch (column) {
        case "importance": {
          const n = Number(cell);
          if (!Number.isFinite(n))
            throw new ImportFileError(`${where}: importance is not a number`);
          record.importance = n;
          break;
        }
        case "tags":
          record.tags = cell
            .split(";")
            .map((t) => t.trim())
            .filter(Boolean);
          break;
        case "pinned":
        case "immutable":
          record[column] = cell.toLowerCase() === "true";
          break;
        case "metadata":
          try {
            record.metadata = JSON.parse(cell);
          } catch {
            throw new ImportFileError(`${where}: metadata is not JSON`);
          }
          break;
        default:
          record[column] = cell;
      }
    });
    return toImportItem(record, where);
  });
}

export type ExportFormat = "json" | "csv" | "markdown";

export function formatOfFile(name: string): ExportFormat | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".md") || lower.endsWith(".markdown")) return "markdown";
  return null;
}

export const EXPORT_EXTENSION: Record<ExportFormat, string> = {
  json: "json",
  csv: "csv",
  markdown: "md",
};

export const EXPORT_MIME: Record<ExportFormat, string> = {
  json: "application/json",
  csv: "text/csv",
  markdown: "text/markdown",
};

/**
 * One file from the export's pages: JSON as `{format, count, memories}` (which imports as
 * is), CSV with one header line, Markdown pages one after another.
 */
export function joinExportPages(format: ExportFormat, pages: unknown[], count: number): string {
  if (format === "json") {
    const memories = pages.flatMap((p) => (Array.isArray(p) ? p : []));
    return `${JSON.stringify({ format, count, memories }, null, 2)}\n`;
  }
  const texts = pages.filter((p): p is string => typeof p === "string");
  if (format === "csv") {
    return texts.map((t, i) => (i === 0 ? t : t.slice(t.indexOf("\n") + 1))).join("");
  }
  return texts.join("\n");
}
