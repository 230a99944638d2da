/** CSV and Markdown export formatting (worker/memories/export-format.ts), without HTTP. */
import { describe, expect, it } from "vitest";
import {
  csvField,
  type ExportedMemory,
  toCsv,
  toMarkdown,
} from "../../worker/memories/export-format";
import { CSV_HEADER, MEMORY_DEFAULTS } from "../fixtures";

/** csvField's rules, each with the cells it gives. */
const CELLS: Array<[rule: string, cases: Array<[value: unknown, cell: string]>]> = [
  [
    "leaves plain values unquoted",
    [
      ["plain text", "plain text"],
      [0.5, "0.5"],
      [12, "12"],
      [true, "true"],
      [null, ""],
      [undefined, ""],
      ["", ""],
    ],
  ],
  [
    "quotes fields with commas, quotes or line breaks, doubling quotes",
    [
      ["a,b", '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ["line1\nline2", '"line1\nline2"'],
      ["line1\r\nline2", '"line1\r\nline2"'],
      ['"', '""""'],
    ],
  ],
  [
    "serialises objects and arrays as JSON",
    [
      [{ a: "x,y" }, '"{""a"":""x,y""}"'],
      [{ a: 1 }, '"{""a"":1}"'],
      [[1, 2], '"[1,2]"'],
    ],
  ],
  [
    "prefixes cells a spreadsheet would run as formulas",
    [
      ["=1+1", "'=1+1"],
      ["+1", "'+1"],
      ["-1", "'-1"],
      ["@SUM(A1)", "'@SUM(A1)"],
      ["\tcell", "'\tcell"],
      ["\rcell", '"\'\rcell"'],
      // Prefixed first, then quoted when needed.
      ['=HYPERLINK("x","y")', '"\'=HYPERLINK(""x"",""y"")"'],
      // Only a leading character counts.
      ["a=b", "a=b"],
      ["1-2", "1-2"],
    ],
  ],
];

describe.each(CELLS)("export-format: csvField %s", (_rule, cases) => {
  it.each(cases)("%j → %j", (value, cell) => {
    expect(csvField(value)).toBe(cell);
  });
});

const memory = (over: Partial<ExportedMemory> = {}): ExportedMemory => ({
  ...MEMORY_DEFAULTS,
  id: "11111111-1111-4111-8111-111111111111",
  content: "Plain content",
  created_at: "2024-05-01T10:00:00.000Z",
  updated_at: "2024-05-01T10:00:00.000Z",
  access_count: 0,
  ...over,
});

describe("export-format: toCsv", () => {
  it("writes only the header for no rows", () => {
    expect(toCsv([])).toBe(`${CSV_HEADER}\r\n`);
  });

  it("writes one CRLF-terminated line per memory", () => {
    const rows = [
      memory({
        tags: ["a", "b"],
        session_id: "s1",
        agent_id: "bot",
        pinned: true,
        metadata: { k: "v" },
        importance: 0.75,
        memory_type: "decision",
        access_count: 3,
      }),
      memory({
        id: "22222222-2222-4222-8222-222222222222",
        namespace: "notes",
        content: 'Quote "this", please',
        expires_at: "2030-01-01T00:00:00.000Z",
        deleted_at: "2024-06-01T00:00:00.000Z",
        immutable: true,
      }),
    ];
    expect(toCsv(rows)).toBe(
      `${CSV_HEADER}\r\n` +
        "11111111-1111-4111-8111-111111111111,default,Plain content,decision,0.75,a;b,s1,bot," +
        'true,false,,2024-05-01T10:00:00.000Z,2024-05-01T10:00:00.000Z,3,,"{""k"":""v""}"\r\n' +
        '22222222-2222-4222-8222-222222222222,notes,"Quote ""this"", please",general,0.5,,,,' +
        "false,true,2030-01-01T00:00:00.000Z,2024-05-01T10:00:00.000Z,2024-05-01T10:00:00.000Z," +
        "0,2024-06-01T00:00:00.000Z,{}\r\n",
    );
  });

  it("neutralises formulas in content and tags", () => {
    const out = toCsv([memory({ content: "=cmd|' /C calc'!A0", tags: ["@admin"] })]);
    const line = out.split("\r\n")[1];
    expect(line).toContain(",'=cmd|' /C calc'!A0,");
    expect(line).toContain(",'@admin,");
  });
});

describe("export-format: toMarkdown", () => {
  it("groups memories under their namespace in first-seen order", () => {
    const md = toMarkdown([
      memory({ namespace: "work", content: "  First work item  " }),
      memory({ namespace: "home", content: "Home item" }),
      memory({
        namespace: "work",
        content: "Second work item",
        tags: ["x", "y"],
        session_id: "s9",
        agent_id: "a9",
        expires_at: "2030-01-01T00:00:00.000Z",
        pinned: true,
        immutable: true,
        deleted_at: "2024-06-01T00:00:00.000Z",
        memory_type: "decision",
        importance: 0.9,
      }),
    ]);
    const lines = md.split("\n");
    expect(lines.slice(0, 4)).toEqual(["# Memory export", "", "3 memories.", ""]);
    const headings = lines.filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## work", "## home"]);
    const at = (s: string) => md.indexOf(s);
    expect(at("## work")).toBeLessThan(at("First work item"));
    expect(at("First work item")).toBeLessThan(at("Second work item"));
    expect(at("Second work item")).toBeLessThan(at("## home"));
    expect(at("## home")).toBeLessThan(at("Home item"));
    // Content is trimmed; flags and optional lines appear only when set.
    expect(lines).toContain("First work item");
    expect(md).toContain("### general · importance 0.5\n");
    expect(md).toContain("### decision · importance 0.9 · pinned, immutable, deleted\n");
    expect(md).toContain("- tags: `x`, `y`");
    expect(md).toContain("- session: s9");
    expect(md).toContain("- agent: a9");
    expect(md).toContain("- expires: 2030-01-01T00:00:00.000Z");
    expect(md.match(/- tags:/g)).toHaveLength(1);
    expect(md.match(/- session:/g)).toHaveLength(1);
    expect(md.match(/- id: `11111111-1111-4111-8111-111111111111`/g)).toHaveLength(3);
    expect(md.match(/- created: 2024-05-01T10:00:00.000Z/g)).toHaveLength(3);
  });

  it("renders an empty export", () => {
    expect(toMarkdown([])).toBe("# Memory export\n\n0 memories.\n");
  });
});
