/**
 * The printed LoCoMo tables: evidence recall overall (with latency and ingest), by category,
 * and hit@k, plus an "ours / Mem0" row when Mem0 ran. Split out of the former
 * scripts/bench/locomo.ts.
 */
import { CATEGORIES, CATEGORY_NAMES, type LocomoData } from "../locomo-data";
import { fmt, pctCell, ratio, type Table } from "../report";
import { K, type SystemReport } from "./types";

export function locomoTables(
  reports: SystemReport[],
  data: LocomoData,
  turns: number,
  questions: number,
  embedder: string,
): Table[] {
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
    title: `LoCoMo evidence recall, ${data.conversations.length} conversations, ${turns} turns, ${questions} questions (categories 1-4), k = ${K}, embedder ${embedder}`,
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
  const dedup = ours?.ingest.flatMap((i) => (i.dedup ? [i.dedup] : [])) ?? [];
  const merged = dedup.reduce((n, d) => n + d.merged, 0);
  if (ours) {
    const lost = dedup.reduce((n, d) => n + d.text_lost, 0);
    const evidenceLost = dedup.reduce((n, d) => n + d.evidence_lost, 0);
    overall.notes?.push(
      `ours: deduplication merged ${merged} turns into earlier memories; ${lost} turns' text is no longer held by their memory (${evidenceLost} of them evidence), and a memory counts for a turn only while it holds the turn's text.`,
    );
  }

  const header = ["system"];
  for (const c of CATEGORIES) header.push(`${c} R@1`, `${c} R@5`, `${c} R@10`);
  const catRow = (r: SystemReport) => [
    r.label,
    ...CATEGORIES.flatMap((c) => {
      const v = r.by_category[c];
      return [pctCell(v?.r1), pctCell(v?.r5), pctCell(v?.r10)];
    }),
  ];
  const byCategory: Table = {
    title: "LoCoMo evidence recall by category, %",
    header,
    rows: reports.map(catRow),
    notes: [
      `Categories: ${CATEGORIES.map((c) => `${c} ${CATEGORY_NAMES[c]} (${reports[0]?.by_category[c]?.questions ?? 0} questions)`).join(", ")}.`,
    ],
  };
  if (ours && mem0) {
    byCategory.rows.push([
      "ours / Mem0",
      ...CATEGORIES.flatMap((c) => {
        const a = ours.by_category[c];
        const b = mem0.by_category[c];
        return [ratio(a?.r1, b?.r1), ratio(a?.r5, b?.r5), ratio(a?.r10, b?.r10)];
      }),
    ]);
  }
  const hits: Table = {
    title: "LoCoMo hit@k, %: questions with at least one evidence turn among the first k results",
    header: ["system", "hit@1", "hit@5", "hit@10", ...CATEGORIES.map((c) => `${c} hit@5`)],
    rows: reports.map((r) => [
      r.label,
      pctCell(r.overall.h1),
      pctCell(r.overall.h5),
      pctCell(r.overall.h10),
      ...CATEGORIES.map((c) => pctCell(r.by_category[c]?.h5)),
    ]),
    notes: [
      "hit@k is what retrieval-only systems usually publish; R@k above asks for every evidence turn.",
    ],
  };
  return [overall, byCategory, hits];
}
