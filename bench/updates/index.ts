/**
 * The knowledge-update part (`--only updates`): how often a question about now is answered
 * with the new fact rather than the one it replaced (issue #45, "Current facts win";
 * docs/knowledge-updates.md), and how often two facts that are both true are wrongly linked. The set is data.ts: updates (an old fact, then the new one in other words, and a
 * question about now) and controls (two similar facts, both true, and a question about one).
 *
 * For each item and each system in turn: the first fact stored, fifteen distractors (the
 * pool's entries that share no content word with the item, from a place that rotates with
 * the item), the second fact, then the question (limit 10); systems.ts says how each does it,
 * score.ts what is counted. `--updates-items N` runs N updates and a proportional number of
 * controls, spread evenly over the set (for a quick look; a measurement runs them all).
 */
import { log, machine, type Table } from "../lib/report";
import { round1 } from "../lib/stats";
import type { EmbedServer } from "../systems/embed-server";
import type { BenchEmbedding } from "../systems/embedding";
import { createMem0, loadMem0, mem0Version } from "../systems/mem0";
import { CONTROLS, DISTRACTORS, UPDATE_KINDS, UPDATES } from "./data";
import { type ItemResult, itemResult, outcome, updatesTables } from "./score";
import {
  bm25System,
  cosineSystem,
  K,
  mem0System,
  oursSystem,
  type Stored,
  type UpdateSystem,
} from "./systems";
import { sharedWords } from "./words";

export const DISTRACTORS_PER_ITEM = 15;
const PROGRESS_EVERY = 20;

export interface UpdatesOptions {
  baseUrl: string;
  embed?: EmbedServer;
  embedding: BenchEmbedding;
  useMem0: boolean;
  /** Updates to run (controls in proportion), spread over the set; all when absent. */
  items?: number;
}

export interface UpdatesOutcome {
  tables: Table[];
  json: Record<string, unknown>;
}

interface Item extends Stored {
  id: string;
  set: "update" | "control";
  group: string;
  asked: "first" | "second";
}

/** `n` of a list, evenly spread over it, in its order. */
function spread<T>(list: readonly T[], n: number): T[] {
  if (n >= list.length) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)] as T);
}

/** The pool's entries that share no content word with the item, from a rotating start. */
function distractorsFor(texts: string[], position: number): string[] {
  const free = DISTRACTORS.filter((d) => texts.every((t) => sharedWords(d, t).length === 0));
  if (free.length < DISTRACTORS_PER_ITEM) {
    throw new Error(`only ${free.length} distractors unrelated to "${texts[0]}"`);
  }
  const start = (position * 7) % free.length;
  return Array.from(
    { length: DISTRACTORS_PER_ITEM },
    (_, i) => free[(start + i) % free.length] as string,
  );
}

export function buildItems(updates?: number): Item[] {
  const nu = updates ?? UPDATES.length;
  const nc =
    updates === undefined ? CONTROLS.length : Math.round((nu * CONTROLS.length) / UPDATES.length);
  const items = [
    ...spread(UPDATES, nu).map((u) => ({
      id: u.id,
      set: "update" as const,
      group: u.kind,
      asked: "second" as const,
      first: u.old,
      second: u.new,
      question: u.question,
    })),
    ...spread(CONTROLS, nc).map((c) => ({
      id: c.id,
      set: "control" as const,
      group: c.shape,
      asked: c.answer,
      first: c.first,
      second: c.second,
      question: c.question,
    })),
  ];
  return items.map((item, i) => ({
    ...item,
    distractors: distractorsFor([item.first, item.second, item.question], i),
  }));
}

export async function runUpdates(opts: UpdatesOptions): Promise<UpdatesOutcome> {
  const items = buildItems(opts.items);
  const nu = items.filter((i) => i.set === "update").length;
  log(
    `updates: ${nu} updates over ${new Set(items.filter((i) => i.set === "update").map((i) => i.group)).size} kinds, ` +
      `${items.length - nu} controls, ${DISTRACTORS_PER_ITEM} distractors each, recall limit ${K}`,
  );

  const systems: UpdateSystem[] = [oursSystem(opts.baseUrl)];
  let mem0Info: Record<string, unknown> | null = null;
  if (opts.useMem0 && opts.embed) {
    const mod = await loadMem0();
    if (typeof mod === "string") log(`Mem0 skipped: ${mod}`);
    else {
      systems.push(mem0System(await createMem0(mod, opts.embed)));
      mem0Info = { package: "mem0ai", version: mem0Version(), where: "in process" };
    }
  }
  systems.push(bm25System(), cosineSystem(opts.embedding.embedder));

  // One item each outside the measurement: first calls pay for connections and compilation.
  const [warm] = items;
  if (warm) for (const s of systems) await s.run(warm, "warm-up");

  opts.embed?.resetStats();
  const results = systems.map((): ItemResult[] => []);
  const spentMs = systems.map(() => 0);
  for (const [n, item] of items.entries()) {
    for (const [i, system] of systems.entries()) {
      const t0 = performance.now();
      const answer = await system.run(item, item.id);
      spentMs[i] = (spentMs[i] ?? 0) + performance.now() - t0;
      results[i]?.push(
        itemResult({ id: item.id, set: item.set, group: item.group, asked: item.asked }, answer),
      );
    }
    if ((n + 1) % PROGRESS_EVERY === 0 || n + 1 === items.length) {
      log(`updates ${n + 1}/${items.length}: ${progressLine(systems, results, spentMs)}`);
    }
  }

  if (mem0Info && opts.embed) {
    const s = opts.embed.stats;
    mem0Info.embed_server = { ...s, ms: round1(s.ms) };
    if (s.chatRequests > 0) throw new Error(`Mem0 called the language model ${s.chatRequests}×`);
  }
  const outcomes = systems.map((s, i) => outcome(s.key, s.label, results[i] ?? []));
  return {
    tables: updatesTables(outcomes, opts.embedding.label),
    json: {
      when: new Date().toISOString(),
      embedder: opts.embedding.label,
      k: K,
      distractors_per_item: DISTRACTORS_PER_ITEM,
      machine: machine(),
      set: {
        updates: nu,
        controls: items.length - nu,
        kinds: UPDATE_KINDS.length,
        distractor_pool: DISTRACTORS.length,
        question_shares_words: questionOverlap(items),
      },
      mem0: mem0Info,
      seconds_per_system: Object.fromEntries(
        systems.map((s, i) => [s.key, round1((spentMs[i] ?? 0) / 1000)]),
      ),
      systems: outcomes,
    },
  };
}

/** Each system's running share of items whose asked fact is above the other, and its time. */
function progressLine(systems: UpdateSystem[], results: ItemResult[][], spentMs: number[]): string {
  return systems
    .map((s, i) => {
      const rs = results[i] ?? [];
      const up = rs.filter(
        (r) => r.rank_asked !== null && (r.rank_other === null || r.rank_asked < r.rank_other),
      ).length;
      return `${s.key} ${up}/${rs.length} asked above other (${((spentMs[i] ?? 0) / 1000).toFixed(1)} s)`;
    })
    .join("; ");
}

/**
 * Which of its two facts each question shares a content word with (words.ts), by set: what a
 * system matching words alone would lean on. Updates: the asked fact is the new one.
 */
function questionOverlap(items: Item[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = { update: {}, control: {} };
  for (const item of items) {
    const [asked, other] =
      item.asked === "first" ? [item.first, item.second] : [item.second, item.first];
    const a = sharedWords(item.question, asked).length > 0;
    const o = sharedWords(item.question, other).length > 0;
    const key = a && o ? "both" : a ? "asked_only" : o ? "other_only" : "neither";
    const counts = out[item.set] ?? {};
    counts[key] = (counts[key] ?? 0) + 1;
    out[item.set] = counts;
  }
  return out;
}
