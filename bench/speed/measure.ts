/**
 * What the speed part measures in one wallet of ours over HTTP, with sequential requests:
 * recall (beside Mem0's, when given), single and batch stores, search and list; and the
 * API seeding whose throughput is the batch store figure. index.ts runs them at each size.
 */
import type { Wallet } from "../lib/http-client";
import { log } from "../lib/report";
import { summary, timingMeans } from "../lib/stats";
import { prng, queryFor, type SyntheticQuery, sentence, TYPES, word } from "../lib/synthetic";
import type { Mem0SizeRun } from "./mem0";
import type { OurSize, SpeedResults } from "./types";

export const WARM_UP_QUERIES = 20;
export const RECALL_LIMIT = 5;

export async function measureRecall(run: OurSize, m0?: Mem0SizeRun) {
  for (const q of run.queries.slice(0, WARM_UP_QUERIES)) {
    await run.wallet.call("POST", "/v1/recall", { query: q.query });
    await m0?.store.search(m0.userId, q.query, RECALL_LIMIT);
  }
  const ms: number[] = [];
  const service: number[] = [];
  const timings: Array<string | null> = [];
  const mem0Ms: number[] = [];
  let hits = 0;
  let mem0Hits = 0;
  for (const q of run.queries.slice(WARM_UP_QUERIES)) {
    const res = await run.wallet.call<{ memories?: Array<{ content: string }> }>(
      "POST",
      "/v1/recall",
      { query: q.query, limit: RECALL_LIMIT },
    );
    ms.push(res.ms);
    timings.push(res.timing);
    service.push(res.ms - (timingMeans([res.timing]).embed ?? 0));
    if (res.body.memories?.[0]?.content === q.target) hits += 1;
    if (m0) {
      const t0 = performance.now();
      const found = await m0.store.search(m0.userId, q.query, RECALL_LIMIT);
      mem0Ms.push(performance.now() - t0);
      if (found[0]?.memory === q.target) mem0Hits += 1;
    }
  }
  const means = timingMeans(timings);
  run.recall = {
    ...summary(ms),
    top1_hit_rate: hits / ms.length,
    service_p95: summary(service).p95,
    embed_mean: means.embed ?? 0,
  };
  log(
    `recall at ${run.size}: p95 ${run.recall.p95} ms (${run.recall.service_p95} ms without embedding); server timing ${JSON.stringify(means)}`,
  );
  if (m0) {
    m0.recall = { ...summary(mem0Ms), top1_hit_rate: mem0Hits / mem0Ms.length };
    log(`Mem0 recall at ${run.size}: p50 ${m0.recall.p50} ms, p95 ${m0.recall.p95} ms`);
  }
}

/**
 * Single stores, batch stores, search and list in the largest wallet: `calls` searches and
 * lists, half as many single stores, a batch store of five times as many memories (the
 * defaults: 100 stores, 1,000 memories, 200 searches and lists).
 */
export async function inLargest(
  run: OurSize,
  calls: number,
): Promise<NonNullable<SpeedResults["largest"]>> {
  const stores = Math.max(1, Math.round(calls / 2));
  const { per_second: _, ...store } = await singleStores(run.wallet, stores, run.size + 7);
  const batchMemories = Math.max(1, 5 * calls);
  const batch = await seedViaApi(run.wallet, batchMemories, run.size + 11);
  log(
    `batch store into the ${run.size} wallet: server timing per batch ${JSON.stringify(batch.timing)}`,
  );
  const r = prng(99);
  const search: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < calls; i++) {
    const query = `${word(r)} ${word(r)}`;
    search.push((await run.wallet.call("POST", "/v1/search", { query, limit: 10 })).ms);
    const offset = Math.floor(r() * 100);
    list.push((await run.wallet.call("GET", `/v1/memories?limit=20&offset=${offset}`)).ms);
  }
  return {
    size: run.size,
    store,
    batch_memories: batchMemories,
    batch_per_second: Math.round(batchMemories / (batch.ms / 1000)),
    search: summary(search),
    list: summary(list),
  };
}

export async function singleStores(w: Wallet, count: number, seed: number) {
  const r = prng(seed);
  const ms: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    ms.push((await w.call("POST", "/v1/store", { content: sentence(r) })).ms);
  }
  const perSecond = Math.round(count / ((performance.now() - started) / 1000));
  return { ...summary(ms), per_second: perSecond };
}

export function speedQueries(texts: string[], size: number, count: number): SyntheticQuery[] {
  const r = prng(size + 1);
  return Array.from({ length: WARM_UP_QUERIES + count }, () => queryFor(texts, r));
}

export async function seedViaApi(
  w: Wallet,
  count: number,
  seed: number,
): Promise<{ texts: string[]; ms: number; timing: Record<string, number> }> {
  const r = prng(seed);
  const texts: string[] = [];
  const timings: Array<string | null> = [];
  let ms = 0;
  for (let done = 0; done < count; done += 100) {
    const batch = Array.from({ length: Math.min(100, count - done) }, () => {
      const content = sentence(r);
      texts.push(content);
      return {
        content,
        importance: Math.round(r() * 100) / 100,
        memory_type: TYPES[Math.floor(r() * TYPES.length)],
      };
    });
    const res = await w.call("POST", "/v1/store/batch", { memories: batch });
    ms += res.ms;
    timings.push(res.timing);
    if ((done / 100) % 20 === 19) {
      // The server's time of the last 20 batches: where a slowdown with the wallet's size is.
      const { dedup, write, total } = timingMeans(timings.slice(-20));
      log(
        `  … ${done + batch.length} / ${count} (last 20 batches, server ms each: dedup ${dedup}, write ${write}, total ${total})`,
      );
    }
  }
  return { texts, ms, timing: timingMeans(timings) };
}
