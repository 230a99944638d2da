/**
 * The distance part's operations, each run `rounds` times in a row by one wallet with its own
 * 50 memories, one request at a time. Around each request the delay proxy must be quiet (no
 * chunk for 2·D + 30 ms), so that what it counts between a request and its response is that
 * request's, and what it counts from the response until it is quiet again is the work the
 * Worker did after answering (waitUntil: closing the pool, the indexer, access counts).
 */

import { newWallet } from "../lib/http-client";
import { log } from "../lib/report";
import { percentile, summary } from "../lib/stats";
import { prng, queryFor, sentence, word } from "../lib/synthetic";
import type { DelayProxy } from "./delay-proxy";

const SEED_BATCHES = 5;
const BATCH = 10;
/** Bound on waiting for the proxy to go quiet; the Worker's work after a response takes ms. */
const SETTLE_MAX_MS = 5_000;

export interface Sample {
  ms: number;
  exchanges: number;
  /** Exchanges answered before the response: the ones the request waited for. */
  answered: number;
  connections: number;
  /** Exchanges after the response, until the proxy was quiet. */
  after: number;
}

export interface OpSummary {
  p50: number;
  p95: number;
  /** Medians per request. */
  exchanges: number;
  answered: number;
  connections: number;
  after: number;
}

interface Memories {
  seedIds: string[];
  seedTexts: string[];
  /** Ids of the single stores, then related and patched. */
  stored: string[];
  /** Ids of the batch stores, then deleted. */
  batched: string[];
  next: () => number;
  tag: string;
}

interface Request {
  method: string;
  path: string;
  body?: unknown;
}

/** The answer fields the checks read (answers are not validated against the contract here). */
interface Body {
  id?: string;
  deduplicated?: boolean;
  count?: number;
  ids?: string[];
  facts_stored?: number;
}

interface Op {
  name: string;
  request(m: Memories, i: number): Request;
  /** Checks the answer beyond its 2xx, and keeps the ids later operations use. */
  check?(m: Memories, body: Body): void;
}

/** Unique text: a synthetic sentence and a word no other memory has (no deduplication). */
const text = (m: Memories, i: number, kind: string) => `${sentence(m.next)} ${m.tag}${kind}${i}`;

const OPS: Op[] = [
  {
    name: "POST /v1/store",
    request: (m, i) => ({ method: "POST", path: "/v1/store", body: { content: text(m, i, "s") } }),
    check: (m, b) => {
      if (!b.id || b.deduplicated !== false) throw new Error(`store: ${JSON.stringify(b)}`);
      m.stored.push(b.id);
    },
  },
  {
    name: `POST /v1/store/batch (${BATCH})`,
    request: (m, i) => batchRequest(batchTexts(m, `b${i}x`)),
    check: (m, b) => {
      if (b.count !== BATCH) throw new Error(`batch stored ${b.count}, not ${BATCH}`);
      m.batched.push(...(b.ids ?? []));
    },
  },
  {
    name: "PATCH /v1/memories/:id (content)",
    request: (m, i) => ({
      method: "PATCH",
      path: `/v1/memories/${m.stored[i]}`,
      body: { content: text(m, i, "p") },
    }),
  },
  {
    name: "DELETE /v1/memories/:id",
    request: (m, i) => ({ method: "DELETE", path: `/v1/memories/${m.batched[i * BATCH]}` }),
  },
  {
    name: "POST /v1/memories/:id/relations",
    request: (m, i) => ({
      method: "POST",
      path: `/v1/memories/${m.seedIds[i % m.seedIds.length]}/relations`,
      body: { target_id: m.stored[i], relation_type: "related_to" },
    }),
  },
  {
    name: "POST /v1/recall",
    request: (m) => ({
      method: "POST",
      path: "/v1/recall",
      body: { query: queryFor(m.seedTexts, m.next).query, limit: 10 },
    }),
  },
  {
    name: "POST /v1/context",
    request: (m) => ({
      method: "POST",
      path: "/v1/context",
      body: { query: queryFor(m.seedTexts, m.next).query, max_memories: 10 },
    }),
  },
  { name: "GET /v1/memories", request: () => ({ method: "GET", path: "/v1/memories?limit=20" }) },
  {
    name: "GET /v1/memories/:id",
    request: (m, i) => ({ method: "GET", path: `/v1/memories/${m.seedIds[i % m.seedIds.length]}` }),
  },
  {
    name: "POST /v1/search",
    request: (m) => ({
      method: "POST",
      path: "/v1/search",
      body: { query: queryFor(m.seedTexts, m.next).query.split(" ").slice(0, 2).join(" ") },
    }),
  },
  {
    name: "GET /v1/export (page of 50)",
    request: () => ({ method: "GET", path: "/v1/export?limit=50" }),
  },
  {
    name: "POST /v1/ingest (rules)",
    // Synchronous without `async: true`; the rules provider keeps each of these sentences.
    request: (m, i) => ({
      method: "POST",
      path: "/v1/ingest",
      body: {
        text: `I prefer ${word(m.next)} over ${word(m.next)} tea ${m.tag}i${i}. We decided to deploy the ${word(m.next)} service on Friday. My ${word(m.next)} project uses ${word(m.next)} ${m.tag}j${i}.`,
      },
    }),
    check: (_m, b) => {
      if (!b.facts_stored) throw new Error(`ingest stored no facts: ${JSON.stringify(b)}`);
    },
  },
];

export const OPERATION_NAMES = OPS.map((op) => op.name);

const batchTexts = (m: Memories, kind: string) =>
  Array.from({ length: BATCH }, (_, k) => text(m, k, kind));

const batchRequest = (texts: string[]): Request => ({
  method: "POST",
  path: "/v1/store/batch",
  body: { memories: texts.map((content) => ({ content })) },
});

/** One wallet, 50 memories, then every operation `rounds` times: the samples by operation. */
export async function measureOperations(
  baseUrl: string,
  proxy: DelayProxy,
  { rounds, seed }: { rounds: number; seed: number },
): Promise<Map<string, Sample[]>> {
  const wallet = newWallet(baseUrl);
  const m: Memories = {
    seedIds: [],
    seedTexts: [],
    stored: [],
    batched: [],
    next: prng(seed),
    tag: `ref${seed}q`,
  };
  for (let b = 0; b < SEED_BATCHES; b++) {
    const texts = batchTexts(m, `seed${b}x`);
    const req = batchRequest(texts);
    const res = await wallet.call<{ ids: string[] }>(req.method, req.path, req.body);
    m.seedIds.push(...res.body.ids);
    m.seedTexts.push(...texts);
  }
  const quietMs = 2 * proxy.delayMs + 30;
  const samples = new Map<string, Sample[]>();
  for (const op of OPS) {
    const list: Sample[] = [];
    for (let i = 0; i < rounds; i++) {
      const req = op.request(m, i);
      await settle(proxy, quietMs);
      const sent = performance.now();
      const res = await wallet.call<Body>(req.method, req.path, req.body);
      const answered = performance.now();
      op.check?.(m, res.body);
      await settle(proxy, quietMs);
      const during = proxy.count(sent, answered);
      const after = proxy.count(answered, performance.now());
      list.push({ ms: res.ms, ...during, after: after.exchanges });
    }
    samples.set(op.name, list);
  }
  return samples;
}

/** Waits until no chunk has moved through the proxy for `quietMs` (bounded). */
async function settle(proxy: DelayProxy, quietMs: number): Promise<void> {
  const deadline = performance.now() + SETTLE_MAX_MS;
  for (;;) {
    const quietFor = performance.now() - proxy.lastActivity;
    if (quietFor >= quietMs) return;
    if (performance.now() > deadline) {
      log(`  the delay proxy was still busy after ${SETTLE_MAX_MS} ms; counts may overlap`);
      return;
    }
    await new Promise((r) => setTimeout(r, quietMs - quietFor));
  }
}

export function summarize(samples: Sample[]): OpSummary {
  const median = (xs: number[]) =>
    percentile(
      xs.toSorted((a, b) => a - b),
      50,
    );
  const latency = summary(samples.map((s) => s.ms));
  return {
    p50: latency.p50,
    p95: latency.p95,
    exchanges: median(samples.map((s) => s.exchanges)),
    answered: median(samples.map((s) => s.answered)),
    connections: median(samples.map((s) => s.connections)),
    after: median(samples.map((s) => s.after)),
  };
}
