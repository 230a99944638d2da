/**
 * The speed part's tables: every operation measured, and the targets of the speed issue
 * (#15) each with its figure, its goal and whether it is met. Mem0's ratios are in the
 * side-by-side table (mem0.ts) and, for batch store, repeated among the targets.
 */

import { fmt, pctCell, type Table } from "../lib/report";
import type { Mem0SizeRun } from "./mem0";
import type { SpeedOptions, SpeedResults } from "./types";

const k = (n: number) => (n >= 1000 ? `${n / 1000}k` : `${n}`);

export function speedTables(
  results: SpeedResults | undefined,
  dbLabel: string,
  opts: SpeedOptions,
  mem0?: Map<number, Mem0SizeRun>,
): Table[] {
  if (!results) return [];
  const rows: string[][] = [
    [
      "store (single), new wallet",
      `${results.store.n} req`,
      fmt(results.store.p50),
      fmt(results.store.p95),
      `${results.store.per_second} req/s`,
    ],
  ];
  for (const s of results.sizes) {
    if (s.insert)
      rows.push([
        `batch store to ${k(s.size)}`,
        `${s.size / 100}×100`,
        "",
        "",
        `${s.insert.per_second} memories/s`,
      ]);
  }
  for (const s of results.sizes) {
    if (!s.recall) continue;
    rows.push([
      `recall @ ${k(s.size)}`,
      `${s.recall.n} req`,
      fmt(s.recall.p50),
      fmt(s.recall.p95),
      `${fmt(s.recall.service_p95)} ms p95 without embedding (${fmt(s.recall.embed_mean)} ms); top-1 ${pctCell(s.recall.top1_hit_rate)}`,
    ]);
  }
  const big = results.largest;
  if (big) {
    const at = k(big.size);
    rows.push([
      `store (single) @ ${at}`,
      `${big.store.n} req`,
      fmt(big.store.p50),
      fmt(big.store.p95),
      "",
    ]);
    const batches =
      big.batch_memories % 100 === 0
        ? `${big.batch_memories / 100}×100`
        : `${big.batch_memories} memories`;
    rows.push([`batch store @ ${at}`, batches, "", "", `${big.batch_per_second} memories/s`]);
    rows.push([
      `search @ ${at}`,
      `${big.search.n} req`,
      fmt(big.search.p50),
      fmt(big.search.p95),
      "",
    ]);
    rows.push([`list @ ${at}`, `${big.list.n} req`, fmt(big.list.p50), fmt(big.list.p95), ""]);
  }
  const plans = results.sizes.flatMap((s) =>
    s.plan ? [`plan of recall @ ${k(s.size)}:`, ...s.plan.map((line) => `  ${line.trim()}`)] : [],
  );
  return [
    {
      title: `Speed over HTTP (wrangler dev, ${opts.embedding.label}, ${dbLabel}, ${opts.otherRows.toLocaleString("en")} memories of other wallets, sequential requests)`,
      header: ["operation", "requests", "p50 ms", "p95 ms", "throughput / detail"],
      rows,
      notes: [
        `HNSW shard indexes built in ${results.index.build_seconds} s; the indexer caught up after seeding in ${Object.entries(
          results.index.catch_up_seconds,
        )
          .map(([size, s]) => `${s} s (${k(Number(size))})`)
          .join(", ")}.`,
        ...plans,
      ],
    },
    targets(results, mem0),
  ];
}

function targets(results: SpeedResults, mem0?: Map<number, Mem0SizeRun>): Table {
  const rows: string[][] = [];
  const add = (what: string, value: string, goal: string, met: boolean | undefined) =>
    rows.push([what, value, goal, met === undefined ? "" : met ? "yes" : "NO"]);
  const api = results.sizes.filter((s) => s.insert);
  for (const s of api) {
    const theirs = mem0?.get(s.size)?.insert.per_second;
    const ratio = s.insert && theirs ? s.insert.per_second / theirs : undefined;
    add(
      `batch store @ ${k(s.size)} vs Mem0`,
      ratio === undefined
        ? "no Mem0 figure"
        : `${s.insert?.per_second} / ${theirs} = ${ratio.toFixed(2)}×`,
      "≥ 1.5×",
      ratio === undefined ? undefined : ratio >= 1.5,
    );
  }
  const first = api[0]?.insert?.per_second;
  const big = results.largest;
  if (first && big) {
    const fall = 1 - big.batch_per_second / first;
    add(
      `batch store rate, ${k(api[0]?.size ?? 0)} → ${k(big.size)}`,
      `${first} → ${big.batch_per_second} (${(fall * 100).toFixed(0)}% lower)`,
      "≤ 20% lower",
      fall <= 0.2,
    );
  }
  for (const s of results.sizes) {
    if (s.size < 10_000 || !s.recall) continue;
    add(
      `recall p95 @ ${k(s.size)} (without embedding)`,
      `${fmt(s.recall.service_p95)} ms`,
      "≤ 30 ms",
      s.recall.service_p95 <= 30,
    );
    if (s.agreement) {
      add(
        `vector top-1 = exact @ ${k(s.size)}`,
        `${pctCell(s.agreement.top1)} (ef_search ${s.agreement.efSearch ?? 100})`,
        "≥ 99%",
        s.agreement.top1 >= 0.99,
      );
      add(
        `vector top-10 overlap @ ${k(s.size)}`,
        pctCell(s.agreement.overlap10),
        "≥ 95%",
        s.agreement.overlap10 >= 0.95,
      );
    }
  }
  if (big) {
    add(`store p95 @ ${k(big.size)}`, `${fmt(big.store.p95)} ms`, "≤ 15 ms", big.store.p95 <= 15);
    add(
      `search p95 @ ${k(big.size)}`,
      `${fmt(big.search.p95)} ms`,
      "≤ 20 ms",
      big.search.p95 <= 20,
    );
    add(`list p95 @ ${k(big.size)}`, `${fmt(big.list.p95)} ms`, "≤ 20 ms", big.list.p95 <= 20);
  }
  return {
    title: "Speed targets (issue #15)",
    header: ["target", "measured", "goal", "met"],
    rows,
    notes: [
      "Latencies are end to end over HTTP through wrangler dev on this machine; 'without embedding' subtracts the query embedding's Server-Timing.",
      "Vector agreement: recall's vector source (the wallet's HNSW shard plus its rows not indexed yet) against an exact scan of the wallet, for 100 of the recall queries, at the hnsw.ef_search recall uses for the wallet's size.",
    ],
  };
}
