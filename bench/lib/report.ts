/** Progress lines, Markdown tables and the JSON files in bench-results/. */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";

export const log = (line: string) => console.log(`[bench] ${line}`);

export interface Table {
  title: string;
  header: string[];
  rows: string[][];
  /** Lines printed under the table (what a column means, how it was measured). */
  notes?: string[];
}

export function renderTable(table: Table): string {
  const { header, rows } = table;
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    `| ${header.map((_, i) => (cells[i] ?? "").padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [
    table.title,
    line(header),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...rows.map(line),
    ...(table.notes ?? []),
  ].join("\n");
}

export function printTable(table: Table): void {
  console.log(`\n${renderTable(table)}`);
}

/** `ours / theirs` as "1.23×", or "" when either is missing. */
export function ratio(ours: number | undefined, theirs: number | undefined): string {
  if (ours === undefined || theirs === undefined || !Number.isFinite(ours)) return "";
  if (!Number.isFinite(theirs) || theirs === 0) return "";
  return `${(ours / theirs).toFixed(2)}×`;
}

export const fmt = (x: number | undefined, digits = 1) =>
  x === undefined || !Number.isFinite(x) ? "" : x.toFixed(digits);

/** A share 0-1 as a percentage with one decimal. */
export const pctCell = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? "" : (100 * x).toFixed(1);

export function machine() {
  const list = cpus();
  return {
    cpus: list.length,
    cpu_model: list[0]?.model ?? "unknown",
    node: process.version,
    // Other work on the machine during the run (1, 5, 15 minute load averages at the end).
    load_average: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export function writeJson(dir: string, name: string, data: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = `${dir.replace(/\/$/, "")}/${name}`;
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}
