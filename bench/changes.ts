/**
 * The change-feed part (`--only changes`; docs/changes.md): how soon a waiting reader hears of
 * a write. Each round, a reader holds GET /v1/changes?wait=… open; the writer stores a memory,
 * then PATCHes it; the time from each write's answer to the reader's answer is the feed's
 * latency. The writes' own latencies are reported beside it (with a reader waiting). Mem0's
 * open-source SDK has no change feed, so its column says so.
 */
import { newWallet } from "./lib/http-client";
import { log, type Table } from "./lib/report";
import { summary } from "./lib/stats";

export interface ChangesOptions {
  baseUrl: string;
  rounds: number;
}

export interface ChangesOutcome {
  tables: Table[];
  json: Record<string, unknown>;
}

interface Page {
  changes: Array<{ kind: string; memory_id: string | null }>;
  next_cursor: string;
}

export async function runChanges(opts: ChangesOptions): Promise<ChangesOutcome> {
  const writer = newWallet(opts.baseUrl);
  log(`changes: ${opts.rounds} rounds of a store and a PATCH, each told to a waiting reader`);
  let cursor = (await writer.call<Page>("GET", "/v1/changes?since=now")).body.next_cursor;
  const told: number[] = [];
  const store: number[] = [];
  const patch: number[] = [];
  /** One write while a reader waits: the write's latency, and from its answer to the reader's. */
  const timed = async (kind: string, write: () => Promise<{ ms: number; id: string }>) => {
    let answeredAt = 0;
    const reading = writer.call<Page>("GET", `/v1/changes?since=${cursor}&wait=10`).then((r) => {
      answeredAt = performance.now();
      return r.body;
    });
    // The reader's request is in place before the write (a read answers at once otherwise).
    await new Promise((r) => setTimeout(r, 30));
    const { ms, id } = await write();
    const wroteAt = performance.now();
    let page = await reading;
    // A read that answered before the write (nothing new yet ends only at `wait`) is not one.
    while (!page.changes.some((e) => e.kind === kind && e.memory_id === id)) {
      cursor = page.next_cursor;
      page = (await writer.call<Page>("GET", `/v1/changes?since=${cursor}&wait=10`)).body;
      answeredAt = performance.now();
    }
    cursor = page.next_cursor;
    told.push(Math.max(0, answeredAt - wroteAt));
    return ms;
  };
  for (let i = 0; i < opts.rounds; i++) {
    let id = "";
    store.push(
      await timed("memory.stored", async () => {
        const r = await writer.call<{ id: string }>("POST", "/v1/store", {
          content: `Round ${i}: the delivery van comes on ${["Monday", "Tuesday", "Friday"][i % 3]} at ${7 + (i % 5)} am`,
        });
        id = r.body.id;
        return { ms: r.ms, id };
      }),
    );
    patch.push(
      await timed("memory.updated", async () => {
        const r = await writer.call("PATCH", `/v1/memories/${id}`, {
          importance: 0.6 + (i % 4) / 10,
        });
        return { ms: r.ms, id };
      }),
    );
    if ((i + 1) % 20 === 0) log(`changes: ${i + 1}/${opts.rounds} rounds`);
  }
  const feed = summary(told);
  const stores = summary(store);
  const patches = summary(patch);
  const table: Table = {
    title: `Change feed: a write's answer to a waiting reader's (ms, ${told.length} writes)`,
    header: ["measure", "p50", "p95", "p99", "Mem0"],
    rows: [
      ["write → waiting feed", String(feed.p50), String(feed.p95), String(feed.p99), "no feed"],
      ["store (a reader waiting)", String(stores.p50), String(stores.p95), String(stores.p99), ""],
      [
        "PATCH (a reader waiting)",
        String(patches.p50),
        String(patches.p95),
        String(patches.p99),
        "",
      ],
    ],
    notes: [
      "Mem0's open-source SDK has no change feed or webhooks (its platform's webhooks are a hosted service): nothing to put beside ours.",
    ],
  };
  return {
    tables: [table],
    json: { rounds: opts.rounds, feed_ms: feed, store_ms: stores, patch_ms: patches },
  };
}
