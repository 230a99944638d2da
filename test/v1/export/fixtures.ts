/** What the export tests share: the call, and a strict reader of the CSV it returns. */
import { expect } from "vitest";
import type { Json, Wallet } from "../../helpers";

/** GET /v1/export with `query` (its "?" included), which must answer 200. */
export async function exportOf(w: Wallet, query = ""): Promise<Json> {
  return w.getOk(`/v1/export${query}`);
}

/** A strict RFC 4180 reader (CRLF records, quoted fields with doubled quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      if (field !== "") throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
      i++;
    } else if (ch === ",") {
      row.push(field);
      field = "";
      i++;
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 2;
    } else if (ch === "\n" || ch === "\r") {
      throw new Error(`bare line break outside quotes at ${i}`);
    } else {
      field += ch;
      i++;
    }
  }
  if (quoted) throw new Error("unterminated quoted field");
  if (field !== "" || row.length > 0) throw new Error("last record lacks its CRLF");
  return rows;
}

/** CSV rows as objects keyed by the header. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error("no header");
  return rows.map((r) => {
    expect(r).toHaveLength(header.length);
    return Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""]));
  });
}
