/**
 * The neighbours part: one wallet imports, another recalls meanwhile. Wallet A stores `size`
 * memories in batches of 100 (POST /v1/store/batch, one after another, as an import does);
 * wallet B, with a few memories of its own, recalls in a loop until A is done. What it shows:
 * A's rate, and how long B waits for the database while A writes (on the embedded database
 * every client shares one PGlite, docs/database.md). Run it with `--embedder local` to
 * measure the database path alone: with bge, A waits mostly for its embeddings.
 */
import { newWallet } from "./lib/http-client";
import { fmt, log, type Table } from "./lib/report";
import { type LatencySummary, summary, timingMeans } from "./lib/stats";
import { prng, sentence } from "./lib/synthetic";
import type { Stack } from "./systems/stack";

export interface NeighboursOptions {
  /** Memories wallet A stores. */
  size: number;
}

interface Result {
  size: number;
  seconds: number;
  perSecond: number;
  /** A's store latency per batch of 100. */
  batch: LatencySummary;
  recall: LatencySummary & { max: number };
  errors: number;
}

const BATCH = 100;

export async function runNeighbours(stack: Stack, opts: NeighboursOptions) {
  const a = newWallet(stack.baseUrl);
  const b = newWallet(stack.baseUrl);
  const r = prng(4242);
  const bTexts = Array.from({ length: 5 }, () => sentence(r));
  await b.call("POST", "/v1/store/batch", { memories: bTexts.map((content) => ({ content })) });

  let done = false;
  let errors = 0;
  const recalls: number[] = [];
  const recaller = (async () => {
    for (let i = 0; !done; i++) {
      const query = bTexts[i % bTexts.length]?.split(" ").slice(0, 6).join(" ") ?? "";
      await b
        .call("POST", "/v1/recall", { query })
        .then(({ ms }) => recalls.push(ms))
        .catch(() => errors++);
    }
  })();

  const batches: number[] = [];
  const timings: Array<string | null> = [];
  const started = performance.now();
  try {
    for (let stored = 0; stored < opts.size; stored += BATCH) {
      const memories = Array.from({ length: Math.min(BATCH, opts.size - stored) }, () => ({
        content: sentence(r),
      }));
      const { ms, timing } = await a.call("POST", "/v1/store/batch", { memories });
      batches.push(ms);
      timings.push(timing);
      if ((stored + BATCH) % 1000 === 0) {
        const s = summary(recalls.slice(-50));
        log(
          `neighbours: A stored ${stored + BATCH} of ${opts.size} (server timing per batch ${JSON.stringify(timingMeans(timings.splice(0)))}); B's last recalls p50 ${fmt(s.p50)} / p95 ${fmt(s.p95)} ms`,
        );
      }
    }
  } finally {
    done = true;
    await recaller;
  }
  const seconds = (performance.now() - started) / 1000;
  const result: Result = {
    size: opts.size,
    seconds,
    perSecond: Math.round(opts.size / seconds),
    batch: summary(batches),
    recall: { ...summary(recalls), max: Math.round(Math.max(0, ...recalls)) },
    errors,
  };
  const table: Table = {
    title: `Neighbours on ${stack.dbLabel}: wallet A stores ${opts.size} memories in batches of ${BATCH}, wallet B recalls meanwhile`,
    header: [
      "A memories/s",
      "A batch p50 / p95 ms",
      "B recalls",
      "B recall p50 / p95 / max ms",
      "errors",
    ],
    rows: [
      [
        String(result.perSecond),
        `${fmt(result.batch.p50)} / ${fmt(result.batch.p95)}`,
        String(result.recall.n),
        `${fmt(result.recall.p50)} / ${fmt(result.recall.p95)} / ${result.recall.max}`,
        String(errors),
      ],
    ],
    notes: ["target: B's recall p95 ≤ 500 ms on the embedded default while A stores 10,000"],
  };
  return { tables: [table], json: { database: stack.dbLabel, ...result } };
}
