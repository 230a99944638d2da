/**
 * The console's import parsing (console/src/transfer.ts) against the service's own export
 * formats (worker/memories/export-format.ts): what the console exports, it re-imports.
 */
import { describe, expect, it } from "vitest";
import {
  chunk,
  formatOfFile,
  ImportFileError,
  joinExportPages,
  parseCsv,
  parseCsvImport,
  parseJsonImport,
  toImportItem,
} from "../../console/src/transfer";
import { type ExportedMemory, toCsv } from "../../worker/memories/export-format";
import { MEMORY_DEFAULTS } from "../fixtures";

const exported = (fields: Partial<ExportedMemory>): ExportedMemory => ({
  ...MEMORY_DEFAULTS,
  id: "7d3c1a52-0f0e-4a43-9b1c-0a1b2c3d4e5f",
  content: "content",
  created_at: "2026-01-02T03:04:05.000Z",
  updated_at: "2026-01-02T03:04:05.000Z",
  access_count: 3,
  ...fields,
});

const rows = [
  exported({
    content: 'Quotes "inside", commas, and\r\na line break',
    tags: ["a", "b"],
    metadata: { source: "chat, line 3", tags: ["a", "b"] },
    importance: 0.8,
    memory_type: "preference",
    namespace: "work",
    session_id: "s1",
    agent_id: "agent-7",
    pinned: true,
  }),
  exported({ content: "=SUM(A1:A3) looks like a formula", expires_at: "9999-01-01T00:00:00.000Z" }),
  exported({ content: "-1 is a number, @here a mention" }),
];

describe("CSV", () => {
  it("reads back every field the export writes, formula guards removed", () => {
    const items = parseCsvImport(toCsv(rows));
    expect(items).toEqual([
      {
        content: 'Quotes "inside", commas, and\r\na line break',
        namespace: "work",
        memory_type: "preference",
        importance: 0.8,
        session_id: "s1",
        agent_id: "agent-7",
        pinned: true,
        immutable: false,
        metadata: { source: "chat, line 3" },
        tags: ["a", "b"],
      },
      {
        content: "=SUM(A1:A3) looks like a formula",
        namespace: "default",
        memory_type: "general",
        importance: 0.5,
        pinned: false,
        immutable: false,
        expires_at: "9999-01-01T00:00:00.000Z",
      },
      {
        content: "-1 is a number, @here a mention",
        namespace: "default",
        memory_type: "general",
        importance: 0.5,
        pinned: false,
        immutable: false,
      },
    ]);
  });

  it("parses RFC 4180 quoting, a BOM and a missing final line break", () => {
    expect(parseCsv('\uFEFFa,b\n"x, ""y""",z')).toEqual([
      ["a", "b"],
      ['x, "y"', "z"],
    ]);
    expect(() => parseCsv('a\n"open')).toThrow(ImportFileError);
  });

  it("needs a content column and says which row is wrong", () => {
    expect(() => parseCsvImport("namespace\nx\n")).toThrow(/no `content` column/);
    expect(() => parseCsvImport("content,importance\nok,high\n")).toThrow(/row 2: importance/);
    expect(() => parseCsvImport("content\n\n ,\n")).toThrow(/row 2: no content/);
  });
});

describe("JSON", () => {
  it("takes an export's object or a bare array, keeping only storable fields", () => {
    const exportBody = joinExportPages("json", [rows.slice(0, 2), rows.slice(2)], 3);
    const items = parseJsonImport(exportBody);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({ content: rows[0]?.content, tags: ["a", "b"] });
    expect(items[0]).not.toHaveProperty("id");
    expect(items[0]).not.toHaveProperty("access_count");
    expect(parseJsonImport(JSON.stringify([{ content: "x" }]))).toEqual([{ content: "x" }]);
  });

  it("refuses what is not a list of memories", () => {
    expect(() => parseJsonImport("{")).toThrow(/Not valid JSON/);
    expect(() => parseJsonImport('{"a":1}')).toThrow(/array of memories/);
    expect(() => parseJsonImport('[{"content":"ok"},{"text":"no"}]')).toThrow(
      /memory 2: no content/,
    );
  });

  it("drops an expiry already past (the service refuses one)", () => {
    const now = Date.parse("2026-06-01T00:00:00Z");
    const item = toImportItem({ content: "x", expires_at: "2026-01-01T00:00:00Z" }, "m", now);
    expect(item).toEqual({ content: "x" });
  });
});

describe("files and pages", () => {
  it("knows the formats by extension and joins export pages into one file", () => {
    expect(formatOfFile("a.JSON")).toBe("json");
    expect(formatOfFile("notes.markdown")).toBe("markdown");
    expect(formatOfFile("x.txt")).toBeNull();
    const csv = joinExportPages("csv", [toCsv(rows.slice(0, 1)), toCsv(rows.slice(1))], 3);
    expect(csv.match(/^id,namespace/gm)).toHaveLength(1);
    expect(parseCsvImport(csv)).toHaveLength(3);
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
