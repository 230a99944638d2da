/**
 * Mem0's side of the speed part: a fresh Mem0 (its local in-memory store) per wallet size,
 * given that size's texts (add, 100 messages a call, infer false), and the side-by-side table.
 */

import { fmt, log, ratio, type Table } from "../lib/report";
import { type LatencySummary, round1 } from "../lib/stats";
import type { EmbedServer } from "../systems/embed-server";
import { createMem0, loadMem0, type Mem0Store, mem0Version } from "../systems/mem0";

export interface RecallRun extends LatencySummary {
  top1_hit_rate: number;
}

/** One wallet size of ours: its texts and, when seeded through the API, its insert rate. */
export interface SizeRun {
  size: number;
  texts: string[];
  insert?: { ms: number; per_second: number };
}

export interface Mem0SizeRun {
  store: Mem0Store;
  userId: string;
  insert: { ms: number; per_second: number };
  recall?: RecallRun;
}

export interface Mem0Json {
  package: string;
  version: string;
  where: string;
  sizes: Record<
    number,
    { insert: Mem0SizeRun["insert"]; recall?: RecallRun; embed_server: unknown }
  >;
}

/** A fresh Mem0 per size, given that size's texts: 100 messages an add, infer false. */
export async function seedMem0(
  runs: SizeRun[],
  opts: { embed?: EmbedServer; mem0MaxSize: number },
): Promise<{ bySize: Map<number, Mem0SizeRun>; json: Mem0Json } | undefined> {
  const { embed } = opts;
  if (!embed) return undefined;
  const mod = await loadMem0();
  if (typeof mod === "string") {
    log(`Mem0 skipped: ${mod}`);
    return undefined;
  }
  const bySize = new Map<number, Mem0SizeRun>();
  const json: Mem0Json = {
    package: "mem0ai",
    version: mem0Version(),
    where: "in process",
    sizes: {},
  };
  for (const run of runs) {
    if (run.size > opts.mem0MaxSize) {
      log(`Mem0 not run at ${run.size} memories (above --mem0-max-size ${opts.mem0MaxSize})`);
      continue;
    }
    embed.resetStats();
    const store = await createMem0(mod, embed);
    const userId = `speed-${run.size}`;
    log(`Mem0: adding ${run.size} memories (in process, 100 messages an add, infer false)`);
    const started = performance.now();
    for (let i = 0; i < run.texts.length; i += 100) {
      await store.add(userId, run.texts.slice(i, i + 100));
      if ((i / 100) % 20 === 19) log(`  … ${i + 100} / ${run.texts.length}`);
    }
    const insertMs = performance.now() - started;
    const insert = {
      ms: Math.round(insertMs),
      per_second: Math.round(run.size / (insertMs / 1000)),
    };
    bySize.set(run.size, { store, userId, insert });
    const s = embed.stats;
    json.sizes[run.size] = { insert, embed_server: { ...s, ms: round1(s.ms) } };
    log(`Mem0 at ${run.size}: ${insert.per_second} memories/s`);
    if (s.chatRequests > 0) throw new Error(`Mem0 called the language model ${s.chatRequests}×`);
  }
  return { bySize, json };
}

export function sideBySide(
  runs: SizeRun[],
  ours: Map<number, RecallRun>,
  mem0: Map<number, Mem0SizeRun>,
  opts: { recallLimit: number; queries: number; warmUp: number },
): Table {
  const sizes = runs.map((r) => r.size).filter((s) => mem0.has(s));
  const k = (n: number) => (n >= 1000 ? `${n / 1000}k` : `${n}`);
  const header = ["system"];
  for (const s of sizes)
    header.push(`insert/s @${k(s)}`, `p50 ms @${k(s)}`, `p95 ms @${k(s)}`, `top-1 @${k(s)}`);
  const oursRow = ["ours (HTTP)"];
  const mem0Row = ["Mem0 (in process)"];
  const ratioRow = ["ours / Mem0"];
  for (const s of sizes) {
    const o = ours.get(s);
    const oi = runs.find((r) => r.size === s)?.insert;
    const m = mem0.get(s);
    oursRow.push(
      oi ? `${oi.per_second}` : "",
      fmt(o?.p50),
      fmt(o?.p95),
      o ? `${Math.round(100 * o.top1_hit_rate)}%` : "",
    );
    mem0Row.push(
      m ? `${m.insert.per_second}` : "",
      fmt(m?.recall?.p50),
      fmt(m?.recall?.p95),
      m?.recall ? `${Math.round(100 * m.recall.top1_hit_rate)}%` : "",
    );
    ratioRow.push(
      ratio(oi?.per_second, m?.insert.per_second),
      ratio(o?.p50, m?.recall?.p50),
      ratio(o?.p95, m?.recall?.p95),
      ratio(o?.top1_hit_rate, m?.recall?.top1_hit_rate),
    );
  }
  return {
    title:
      "Speed side by side: ours over HTTP against the running service, Mem0 in process (same texts, queries and embeddings)",
    header,
    rows: [oursRow, mem0Row, ratioRow],
    notes: [
      "insert/s: memories stored a second, 100 a call (ours: POST /v1/store/batch, deduplicating, with the HNSW indexes live; Mem0: add with 100 messages, infer false, no deduplication).",
      `p50/p95: recall latency, limit ${opts.recallLimit}, ${opts.queries} sequential queries after ${opts.warmUp} warm-up ones; ours includes HTTP through wrangler dev and the query's embedding, Mem0 one local HTTP embedding call per query.`,
      "top-1: how often the memory a synthetic query was drawn from ranks first (ours counts recalled memories' access_boost).",
    ],
  };
}
