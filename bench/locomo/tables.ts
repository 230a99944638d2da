/**
 * The printed tables of the quality part, titled and labelled with the dataset's own name and
 * category names (data.ts, DatasetProfile): evidence recall overall (with latency and
 * ingest), recall and hit@k by category, and, with --hold-out, the same figures for the
 * conversations tuned on and those held out. "ours / Mem0" rows when Mem0 ran, and "ours −
 * best other" in points, the margin the quality targets are stated in.
 */

import { fmt, pctCell, ratio, type Table } from "../lib/report";
import type { LocomoData } from "./data";
import { byCategory, figures } from "./evaluate";
import { type Figures, K, type SystemReport } from "./types";

type Cell = Figures | undefined;

/** Points ours leads the best of the other systems by, for one figure. */
function leadRow(
  reports: SystemReport[],
  cells: (r: SystemReport) => Cell[],
  keys: Array<keyof Figures>,
): string[] | undefined {
  const ours = reports.find((r) => r.key === "ours");
  const others = reports.filter((r) => r.key !== "ours");
  if (!ours || others.length === 0) return undefined;
  const mine = cells(ours);
  const theirs = others.map(cells);
  return mine.flatMap((cell, i) =>
    keys.map((key) => {
      const a = cell?.[key];
      const best = Math.max(...theirs.map((t) => t[i]?.[key] ?? Number.NEGATIVE_INFINITY));
      if (a === undefined || !Number.isFinite(best)) return "";
      const points = 100 * (a - best);
      return `${points >= 0 ? "+" : ""}${points.toFixed(1)}`;
    }),
  );
}

export function locomoTables(
  reports: SystemReport[],
  data: LocomoData,
  turns: number,
  questions: number,
  embedder: string,
  heldOut: string[] = [],
): Table[] {
  const name = data.profile.name;
  const categories = data.categories;
  const label = (c: number) => data.profile.categories[c] ?? String(c);
  const ours = reports.find((r) => r.key === "ours");
  const mem0 = reports.find((r) => r.key === "mem0");
  const overallRow = (r: SystemReport) => [
    r.label,
    pctCell(r.overall.r1),
    pctCell(r.overall.r5),
    pctCell(r.overall.r10),
    fmt(r.recall_latency_ms.p50, 2),
    fmt(r.recall_latency_ms.p95, 2),
    fmt(r.ingest_ms_total / 1000, 2),
    fmt(turns / (r.ingest_ms_total / 1000), 0),
  ];
  const overall: Table = {
    title: `${name} evidence recall, ${data.conversations.length} conversations, ${turns} turns, ${questions} questions (categories ${categories.join(", ")}), k = ${K}, embedder ${embedder}`,
    header: ["system", "R@1 %", "R@5 %", "R@10 %", "p50 ms", "p95 ms", "ingest s", "turns/s"],
    rows: reports.map(overallRow),
    notes: [
      "R@k: share of a question's evidence turns among the first k results, averaged over questions.",
      `Every system ranks with the same vectors: ${embedder}.`,
      "p50/p95: recall latency per question (ours over HTTP through wrangler dev; the others in process).",
      "ingest: storing every turn of the conversations (ours: POST /v1/store/batch, 100 a call; Mem0: add per turn, infer false).",
    ],
  };
  if (ours && mem0) {
    overall.rows.push([
      "ours / Mem0",
      ratio(ours.overall.r1, mem0.overall.r1),
      ratio(ours.overall.r5, mem0.overall.r5),
      ratio(ours.overall.r10, mem0.overall.r10),
      ratio(ours.recall_latency_ms.p50, mem0.recall_latency_ms.p50),
      ratio(ours.recall_latency_ms.p95, mem0.recall_latency_ms.p95),
      ratio(ours.ingest_ms_total, mem0.ingest_ms_total),
      ratio(1 / ours.ingest_ms_total, 1 / mem0.ingest_ms_total),
    ]);
  }
  const lead = leadRow(reports, (r) => [r.overall], ["r1", "r5", "r10"]);
  if (lead) overall.rows.push(["ours − best other, points", ...lead, "", "", "", ""]);
  const dedup = ours?.ingest.flatMap((i) => (i.dedup ? [i.dedup] : [])) ?? [];
  if (ours) {
    const merged = dedup.reduce((n, d) => n + d.merged, 0);
    const lost = dedup.reduce((n, d) => n + d.text_lost, 0);
    const evidenceLost = dedup.reduce((n, d) => n + d.evidence_lost, 0);
    overall.notes?.push(
      `ours: deduplication merged ${merged} turns into earlier memories; ${lost} turns' text is no longer held by their memory (${evidenceLost} of them evidence), and a memory counts for a turn only while it holds the turn's text.`,
    );
  }
  const categoryNote = `Categories: ${categories.map((c) => `${c} ${label(c)} (${reports[0]?.by_category[c]?.questions ?? 0} questions)`).join(", ")}.`;

  const recallKeys: Array<keyof Figures> = ["r1", "r5", "r10"];
  const byCat = (r: SystemReport) => categories.map((c) => r.by_category[c]);
  const recallTable: Table = {
    title: `${name} evidence recall by category, %`,
    header: ["system", ...categories.flatMap((c) => [1, 5, 10].map((k) => `${label(c)} R@${k}`))],
    rows: reports.map((r) => [
      r.label,
      ...byCat(r).flatMap((v) => [pctCell(v?.r1), pctCell(v?.r5), pctCell(v?.r10)]),
    ]),
    notes: [categoryNote],
  };
  if (ours && mem0) {
    recallTable.rows.push([
      "ours / Mem0",
      ...categories.flatMap((c) => {
        const a = ours.by_category[c];
        const b = mem0.by_category[c];
        return [ratio(a?.r1, b?.r1), ratio(a?.r5, b?.r5), ratio(a?.r10, b?.r10)];
      }),
    ]);
  }
  const recallLead = leadRow(reports, byCat, recallKeys);
  if (recallLead) recallTable.rows.push(["ours − best other, points", ...recallLead]);

  const hitKeys: Array<keyof Figures> = ["h1", "h5", "h10"];
  const hitCells = (r: SystemReport) => [r.overall, ...byCat(r)];
  const hits: Table = {
    title: `${name} hit@k, %: questions with at least one evidence turn among the first k results`,
    header: [
      "system",
      "hit@1",
      "hit@5",
      "hit@10",
      ...categories.flatMap((c) => [1, 5, 10].map((k) => `${label(c)} hit@${k}`)),
    ],
    rows: reports.map((r) => [
      r.label,
      ...hitCells(r).flatMap((v) => hitKeys.map((key) => pctCell(v?.[key]))),
    ]),
    notes: [
      "hit@k is what retrieval-only systems usually publish; R@k above asks for every evidence turn.",
    ],
  };
  const hitLead = leadRow(reports, hitCells, hitKeys);
  if (hitLead) hits.rows.push(["ours − best other, points", ...hitLead]);
  const tables = [overall, recallTable, hits];
  if (heldOut.length > 0) tables.push(heldOutTable(reports, data, heldOut, label));
  return tables;
}

/**
 * R@1 and R@10 overall and by category, once for the conversations tuned on and once for those
 * held out of tuning (--hold-out): what a change gains on data it was not fitted to.
 */
function heldOutTable(
  reports: SystemReport[],
  data: LocomoData,
  heldOut: string[],
  label: (c: number) => string,
): Table {
  const held = new Set(heldOut);
  const split = (r: SystemReport, out: boolean) => {
    const rs = r.questions.filter((q) => held.has(q.sample_id) === out);
    return rs.length === 0
      ? undefined
      : { overall: figures(rs), by: byCategory(rs, data.categories) };
  };
  const rows: string[][] = [];
  for (const out of [false, true]) {
    for (const r of reports) {
      const s = split(r, out);
      rows.push([
        `${r.label}, ${out ? "held out" : "tuned on"}`,
        pctCell(s?.overall.r1),
        pctCell(s?.overall.r10),
        ...data.categories.map((c) => pctCell(s?.by[c]?.r10)),
      ]);
    }
  }
  const tunedOn = data.conversations.map((c) => c.sampleId).filter((id) => !held.has(id));
  return {
    title: `${data.profile.name} evidence recall, %: conversations tuned on and held out`,
    header: ["system", "R@1", "R@10", ...data.categories.map((c) => `${label(c)} R@10`)],
    rows,
    notes: [
      `Held out of tuning: ${heldOut.join(", ")}; tuned on: ${tunedOn.join(", ") || "none"}.`,
    ],
  };
}
