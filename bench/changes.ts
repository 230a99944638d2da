/**
 * The change-feed part (`--only changes`; docs/changes.md): how soon a waiting reader hears of
 * a write. Each round, a reader holds GET /v1/changes?wait=… open; the writer stores a memory,
 * then PATCHes it; the time from each write's answer to the reader's answer is the feed's
 * latency. The writes' own latencies are reported beside it (with a reader waiting). Then a
 * webhook (docs/webhooks.md) to a receiver in this process, verifying each delivery with
 * `standardwebhooks`: the time from sending a store to its delivery's arrival. Mem0's
 * open-source SDK has no change feed nor webhooks, so its column says so.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { newWallet, type Wallet } from "./lib/http-client";
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
  const hooks = await webhookLatency(writer, opts.rounds);
  const feed = summary(told);
  const stores = summary(store);
  const patches = summary(patch);
  const table: Table = {
    title: `Change feed and webhooks (ms; ${told.length} writes told to a waiting reader, ${hooks.sent} stores to a webhook)`,
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
      [
        "store sent → webhook arrived",
        String(hooks.latency.p50),
        String(hooks.latency.p95),
        String(hooks.latency.p99),
        "no webhooks",
      ],
    ],
    notes: [
      "Mem0's open-source SDK has no change feed or webhooks (its platform's webhooks are a hosted service): nothing to put beside ours.",
      `Webhook: ${hooks.verified}/${hooks.sent} deliveries verified with standardwebhooks, through the local queue.`,
    ],
  };
  return {
    tables: [table],
    json: {
      rounds: opts.rounds,
      feed_ms: feed,
      store_ms: stores,
      patch_ms: patches,
      webhook_ms: hooks.latency,
      webhook_verified: hooks.verified,
      webhook_sent: hooks.sent,
    },
  };
}

/**
 * Stores `n` memories one after another with a webhook registered to a receiver here; each
 * store's time from sending to its delivery's arrival (verified, or not counted).
 */
async function webhookLatency(w: Wallet, n: number) {
  const arrived = new Map<string, number>();
  let verifier: Webhook | undefined;
  let verified = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        const payload = verifier?.verify(body, req.headers as Record<string, string>) as {
          type: string;
          data: { memory_id: string | null };
        };
        verified += 1;
        if (payload.type === "memory.stored" && payload.data.memory_id) {
          arrived.set(payload.data.memory_id, performance.now());
        }
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  try {
    const created = await w.call<{ id: string; secret: string }>("POST", "/v1/webhooks", {
      url: `http://127.0.0.1:${port}/hook`,
      events: ["memory.stored"],
    });
    verifier = new Webhook(created.body.secret);
    const sentAt = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const r = await w.call<{ id: string }>("POST", "/v1/store", {
        content: `Webhook round ${i}: the mail arrives at ${8 + (i % 6)} in the ${["morning", "evening"][i % 2]}`,
      });
      sentAt.set(r.body.id, started);
    }
    const until = Date.now() + 30_000;
    while (arrived.size < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const ms = [...sentAt].flatMap(([id, at]) => {
      const got = arrived.get(id);
      return got === undefined ? [] : [got - at];
    });
    if (ms.length < n) log(`changes: only ${ms.length} of ${n} webhook deliveries arrived in 30 s`);
    await w.call("DELETE", `/v1/webhooks/${created.body.id}`);
    return { latency: summary(ms), verified, sent: n };
  } finally {
    server.close();
  }
}
