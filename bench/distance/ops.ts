/**
 * The distance part's operations, each run `rounds` times by one wallet with its own 50
 * memories, one request at a time. Around each request the delay proxy must be quiet (no
 * chunk for 2·D + 30 ms), so that what it counts between a request and its response is that
 * request's, and what it counts from the response until it is quiet again is the work the
 * Worker did after answering (waitUntil: closing the pool, the indexer, access counts).
 *
 * A second wallet, the grantee, holds a `write` grant on the namespace of those memories and
 * runs the shared operations (`?owner=`, docs/sharing.md) round by round beside the plain ones,
 * so that both rows of a pair saw the same machine and the same memories.
 */

import { newWallet, type Wallet } from "../lib/http-client";
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
  /** Ids of the grantee's stores. */
  sharedStored: string[];
  /** The grantee's address, lower-case, as `created_by` gives it. */
  grantee: string;
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
  memory?: { created_by?: string };
  memories?: Array<{ id: string }>;
}

interface Op {
  name: string;
  request(m: Memories, i: number): Request;
  /** Checks the answer beyond its 2xx, and keeps the ids later operations use. */
  check?(m: Memories, body: Body): void;
  /** The same operation by the grantee on the owner's memories: a row of its own under this one. */
  shared?: Pick<Op, "request" | "check">;
}

/** The owner's seed memories are in the default namespace; the grant is on it. */
const NAMESPACE = "default";

const sharedName = (name: string) => `${name} (shared)`;

/** A shared read answers with the owner's memories: some, and none that is not the owner's. */
function ownersMemories(m: Memories, b: Body): void {
  const owned = new Set([...m.seedIds, ...m.stored, ...m.batched, ...m.sharedStored]);
  const ids = (b.memories ?? []).map((x) => x.id);
  if (ids.length === 0 || ids.some((id) => !owned.has(id))) {
    throw new Error(`shared read answered ${JSON.stringify(ids)}, not the owner's memories`);
  }
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
    shared: {
      request: (m, i) => ({
        method: "POST",
        path: "/v1/store",
        body: { content: text(m, i, "g") },
      }),
      check: (m, b) => {
        if (!b.id || b.deduplicated !== false || b.memory?.created_by !== m.grantee) {
          throw new Error(`shared store: ${JSON.stringify(b)}`);
        }
        m.sharedStored.push(b.id);
      },
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
    shared: {
      request: (m, i) => ({
        method: "PATCH",
        path: `/v1/memories/${m.stored[i]}`,
        body: { content: text(m, i, "gp") },
      }),
    },
  },
  {
    name: "PATCH /v1/memories/:id (fields)",
    request: (m, i) => ({
      method: "PATCH",
      path: `/v1/memories/${m.stored[i]}`,
      body: { importance: 0.6, tags: [`f${i}`] },
    }),
    shared: {
      request: (m, i) => ({
        method: "PATCH",
        path: `/v1/memories/${m.stored[i]}`,
        body: { importance: 0.7, tags: [`g${i}`] },
      }),
    },
  },
  {
    name: `PATCH /v1/memories/batch (${BATCH}, content)`,
    request: (m, i) => ({
      method: "PATCH",
      path: "/v1/memories/batch",
      body: {
        updates: Array.from({ length: BATCH }, (_, k) => ({
          id: m.batched[i * BATCH + k],
          content: text(m, k, `u${i}x`),
        })),
      },
    }),
    check: (_m, b) => {
      const updated = (b as { updated?: number }).updated;
      if (updated !== BATCH) throw new Error(`batch update: ${JSON.stringify(b)}`);
    },
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
    request: (m) => recallRequest(m),
    shared: { request: (m) => recallRequest(m), check: ownersMemories },
  },
  {
    name: "POST /v1/context",
    request: (m) => ({
      method: "POST",
      path: "/v1/context",
      body: { query: queryFor(m.seedTexts, m.next).query, max_memories: 10 },
    }),
  },
  {
    name: "GET /v1/memories",
    request: () => listRequest,
    shared: { request: () => listRequest, check: ownersMemories },
  },
  {
    name: "GET /v1/memories/:id",
    request: (m, i) => ({ method: "GET", path: `/v1/memories/${m.seedIds[i % m.seedIds.length]}` }),
  },
  {
    name: "POST /v1/search",
    request: (m) => searchRequest(m),
    shared: { request: (m) => searchRequest(m), check: ownersMemories },
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

export const OPERATION_NAMES = OPS.flatMap((op) =>
  op.shared ? [op.name, sharedName(op.name)] : [op.name],
);

function recallRequest(m: Memories): Request {
  const { query } = queryFor(m.seedTexts, m.next);
  return { method: "POST", path: "/v1/recall", body: { query, limit: 10 } };
}

function searchRequest(m: Memories): Request {
  // Two words of one seed memory: full-text search finds at least that memory.
  const query = queryFor(m.seedTexts, m.next).query.split(" ").slice(0, 2).join(" ");
  return { method: "POST", path: "/v1/search", body: { query } };
}

const listRequest: Request = { method: "GET", path: "/v1/memories?limit=20" };

const batchTexts = (m: Memories, kind: string) =>
  Array.from({ length: BATCH }, (_, k) => text(m, k, kind));

const batchRequest = (texts: string[]): Request => ({
  method: "POST",
  path: "/v1/store/batch",
  body: { memories: texts.map((content) => ({ content })) },
});

/**
 * One wallet with 50 memories and a grantee with `write` on them, then every operation `rounds`
 * times (its shared twin beside it): the samples by operation.
 */
export async function measureOperations(
  baseUrl: string,
  proxy: DelayProxy,
  { rounds, seed }: { rounds: number; seed: number },
): Promise<Map<string, Sample[]>> {
  const owner = newWallet(baseUrl);
  const grantee = newWallet(baseUrl);
  const m: Memories = {
    seedIds: [],
    seedTexts: [],
    stored: [],
    batched: [],
    sharedStored: [],
    grantee: grantee.account.address.toLowerCase(),
    next: prng(seed),
    tag: `ref${seed}q`,
  };
  for (let b = 0; b < SEED_BATCHES; b++) {
    const texts = batchTexts(m, `seed${b}x`);
    const req = batchRequest(texts);
    const res = await owner.call<{ ids: string[] }>(req.method, req.path, req.body);
    m.seedIds.push(...res.body.ids);
    m.seedTexts.push(...texts);
  }
  await owner.call("POST", "/v1/grants", {
    grantee: m.grantee,
    namespace: NAMESPACE,
    permission: "write",
  });
  const asOwner = `owner=${owner.account.address.toLowerCase()}`;
  // The grantee's first request looks its user id up (then cached by the isolate), as the
  // owner's seeding did for the owner: not in a sample.
  await grantee.call("GET", `/v1/memories?limit=1&${asOwner}`);
  const quietMs = 2 * proxy.delayMs + 30;
  const samples = new Map(OPERATION_NAMES.map((name): [string, Sample[]] => [name, []]));
  for (const op of OPS) {
    const runs: Run[] = [{ name: op.name, wallet: owner, op, query: "" }];
    if (op.shared) {
      runs.push({ name: sharedName(op.name), wallet: grantee, op: op.shared, query: asOwner });
    }
    for (let i = 0; i < rounds; i++) {
      // The plain one first every other round: what drifts on the machine falls on both.
      for (const run of i % 2 ? runs.toReversed() : runs) {
        const req = run.op.request(m, i);
        const path = run.query
          ? `${req.path}${req.path.includes("?") ? "&" : "?"}${run.query}`
          : req.path;
        const sample = await measure(proxy, quietMs, run.wallet, { ...req, path }, (body) =>
          run.op.check?.(m, body),
        );
        samples.get(run.name)?.push(sample);
      }
    }
  }
  return samples;
}

/** An operation as one wallet calls it; `query` is added to its path (`?owner=` when shared). */
interface Run {
  name: string;
  wallet: Wallet;
  op: Pick<Op, "request" | "check">;
  query: string;
}

/** One request between two quiet spells of the proxy, and what the proxy counted. */
async function measure(
  proxy: DelayProxy,
  quietMs: number,
  wallet: Wallet,
  req: Request,
  check: (body: Body) => void,
): Promise<Sample> {
  await settle(proxy, quietMs);
  const sent = performance.now();
  const res = await wallet.call<Body>(req.method, req.path, req.body);
  const answered = performance.now();
  check(res.body);
  await settle(proxy, quietMs);
  const during = proxy.count(sent, answered);
  const after = proxy.count(answered, performance.now());
  return { ms: res.ms, ...during, after: after.exchanges };
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
