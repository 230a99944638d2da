/** GET /v1/export?format=csv and ?format=markdown: RFC 4180 records, and a grouped document. */
import { describe, expect, it } from "vitest";
import { CSV_HEADER } from "../../fixtures";
import { newWallet } from "../../helpers";
import { csvRecords, exportOf, parseCsv } from "./fixtures";

describe("GET /v1/export?format=csv", () => {
  it("returns a header line and one RFC 4180 record per memory", async () => {
    const w = newWallet();
    const plain = await w.storeNew("Plain words with nothing special", {
      tags: ["one", "two"],
      session_id: "sess",
      agent_id: "bot",
      importance: 0.25,
      memory_type: "project",
      metadata: { source: "chat", n: 3 },
    });
    const tricky = 'He said "hi, there", then left\nwithout a word'; // comma, quotes, newline
    const trickyId = await w.storeNew(tricky, { namespace: "quotes" });
    const crlf = "Windows line\r\nbreak, and a comma";
    const crlfId = await w.storeNew(crlf, { namespace: "crlf" });

    const body = await exportOf(w, "?format=csv");
    expect(body.format).toBe("csv");
    expect(body.count).toBe(3);
    expect(typeof body.memories).toBe("string");
    const text: string = body.memories;
    expect(text.startsWith(`${CSV_HEADER}\r\n`)).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    // Quotes are doubled inside a quoted field.
    expect(text).toContain('"He said ""hi, there"", then left\nwithout a word"');

    const rows = parseCsv(text);
    expect(rows[0]).toEqual(CSV_HEADER.split(","));
    expect(rows).toHaveLength(4);
    const records = csvRecords(text);
    const stored = await w.getMemory(plain);
    expect(records[0]).toEqual({
      id: plain,
      namespace: "default",
      content: "Plain words with nothing special",
      memory_type: "project",
      importance: "0.25",
      tags: "one;two",
      session_id: "sess",
      agent_id: "bot",
      pinned: "false",
      immutable: "false",
      expires_at: "",
      created_at: stored.created_at,
      updated_at: stored.updated_at,
      access_count: "0",
      deleted_at: "",
      metadata: JSON.stringify(stored.metadata),
    });
    expect(JSON.parse(records[0]?.metadata ?? "")).toEqual({
      source: "chat",
      n: 3,
      tags: ["one", "two"],
    });
    expect(records[1]?.id).toBe(trickyId);
    expect(records[1]?.content).toBe(tricky);
    expect(records[1]?.namespace).toBe("quotes");
    expect(records[2]?.id).toBe(crlfId);
    expect(records[2]?.content).toBe(crlf);
  });

  it("neutralises cells that a spreadsheet would run as formulas", async () => {
    const w = newWallet();
    await w.storeNew('=HYPERLINK("http://evil.example","click")', { namespace: "f1" });
    await w.storeNew("+1 for the proposal from Dana", { namespace: "f2" });
    await w.storeNew("-5 degrees expected tonight in the valley", { namespace: "f3" });
    await w.storeNew("@channel standup moved to ten", { namespace: "f4" });
    await w.storeNew("Safe sentence without a formula", { namespace: "f5" });
    const records = csvRecords((await exportOf(w, "?format=csv")).memories);
    expect(records.map((r) => r.content)).toEqual([
      '\'=HYPERLINK("http://evil.example","click")',
      "'+1 for the proposal from Dana",
      "'-5 degrees expected tonight in the valley",
      "'@channel standup moved to ten",
      "Safe sentence without a formula",
    ]);
  });
});

describe("GET /v1/export?format=markdown", () => {
  it("returns a Markdown document grouped by namespace", async () => {
    const w = newWallet();
    const [a1 = "", b1, a2] = await w.storeEach([
      {
        content: "Alpha team retrospective notes from sprint twelve",
        namespace: "alpha",
        tags: ["retro"],
        memory_type: "project",
        importance: 0.75,
        pinned: true,
      },
      {
        content: "Beta customers asked for an offline mode",
        namespace: "beta",
        session_id: "call-7",
        agent_id: "scribe",
      },
      { content: "Alpha release candidate passed all smoke tests", namespace: "alpha" },
    ]);
    const body = await exportOf(w, "?format=markdown");
    expect(body.format).toBe("markdown");
    expect(body.count).toBe(3);
    const md: string = body.memories;
    expect(typeof md).toBe("string");
    expect(md.startsWith("# Memory export\n")).toBe(true);
    expect(md).toContain("3 memories.");

    const at = (s: string) => {
      const i = md.indexOf(s);
      expect(i, `missing ${s}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    // Both alpha memories come under "## alpha", before "## beta".
    expect(md.match(/^## /gm)).toHaveLength(2);
    expect(at("## alpha")).toBeLessThan(at("Alpha team retrospective"));
    expect(at("Alpha team retrospective")).toBeLessThan(at("Alpha release candidate"));
    expect(at("Alpha release candidate")).toBeLessThan(at("## beta"));
    expect(at("## beta")).toBeLessThan(at("Beta customers asked"));

    expect(md).toContain("### project · importance 0.75 · pinned");
    expect(md).toContain(`- id: \`${a1}\``);
    expect(md).toContain(`- id: \`${a2}\``);
    expect(md).toContain(`- id: \`${b1}\``);
    expect(md).toContain("- tags: `retro`");
    expect(md).toContain("- session: call-7");
    expect(md).toContain("- agent: scribe");
    expect(md).toContain(`- created: ${(await w.getMemory(a1)).created_at}`);
  });
});
