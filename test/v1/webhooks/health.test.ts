/**
 * The queue consumer's decisions, batch by batch (createMessageBatch): a failure retried with
 * Standard Webhooks' backoff; an endpoint failing for a day disabled with its reason; 410
 * disabling at once; the dead-letter queue recording that it gave up; a duplicate skipped;
 * a deleted webhook's message dropped. Then the minute's catch-up (scheduled) and delivery
 * without a queue binding.
 */
import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../worker/env";
import worker from "../../../worker/index";
import { RETRY_DELAYS } from "../../../worker/webhooks/retry";
import { withDb } from "../../db";
import { expectStatus, newWallet } from "../../helpers";
import { workerWith } from "../../worker-with";
import { deliverBatch, hook, kindsOf, received, receivedAtLeast, register } from "./fixtures";

const QUEUE = "memory-webhooks";
const DLQ = "memory-webhooks-dlq";

function message(webhookId: string, kind = "memory.stored") {
  return {
    webhook_id: webhookId,
    event: {
      id: crypto.randomUUID(),
      cursor: "1",
      kind,
      namespace: "default",
      memory_id: null,
      created_by: null,
      at: new Date().toISOString(),
    },
  };
}

async function registered(mode: string) {
  const w = newWallet();
  const { key, url } = hook(mode);
  const created = await register(w, key, { url });
  return { w, key, id: created.id as string };
}

describe("the webhooks queue consumer", () => {
  it("retries a failure with the backoff schedule and marks the endpoint failing", async () => {
    const { w, key, id } = await registered("fail");
    const first = await deliverBatch(QUEUE, [message(id)]);
    expect(first.delays).toEqual([RETRY_DELAYS[0]]);
    const third = await deliverBatch(QUEUE, [message(id)], { attempts: 3 });
    expect(third.delays).toEqual([RETRY_DELAYS[2]]);
    expect(await received(key)).toHaveLength(2);
    const view = expectStatus(await w.get(`/v1/webhooks/${id}`), 200);
    expect(view.status).toBe("failing");
    expect(view.failing_since).not.toBeNull();
    expect(view.disabled_at).toBeNull();
  });

  it("disables an endpoint that has failed for more than a day, saying why; then sends nothing", async () => {
    const { w, key, id } = await registered("fail");
    await withDb((db) =>
      db.execute(
        sql`UPDATE webhooks SET failing_since = now() - interval '25 hours' WHERE id = ${id}::uuid`,
      ),
    );
    await deliverBatch(QUEUE, [message(id)]);
    const view = expectStatus(await w.get(`/v1/webhooks/${id}`), 200);
    expect(view.status).toBe("disabled");
    expect(view.disabled_reason).toContain("failed for more than 24 hours");
    expect(view.disabled_reason).toContain("HTTP 500");
    const listed = expectStatus(await w.get("/v1/webhooks"), 200).webhooks[0];
    expect(listed.disabled_reason).toBe(view.disabled_reason);
    // A message still queued for it is acked unsent.
    const after = await deliverBatch(QUEUE, [message(id)]);
    expect(after.delays).toEqual([]);
    expect(after.result.explicitAcks).toHaveLength(1);
    expect(await received(key)).toHaveLength(1);
  });

  it("a success clears failing_since", async () => {
    const { w, id } = await registered("ok");
    await withDb((db) =>
      db.execute(
        sql`UPDATE webhooks SET failing_since = now() - interval '2 hours' WHERE id = ${id}::uuid`,
      ),
    );
    await deliverBatch(QUEUE, [message(id)]);
    expect(expectStatus(await w.get(`/v1/webhooks/${id}`), 200)).toMatchObject({
      status: "active",
      failing_since: null,
    });
  });

  it("disables at once on 410 Gone", async () => {
    const { w, id } = await registered("gone");
    const res = await deliverBatch(QUEUE, [message(id)]);
    expect(res.delays).toEqual([]);
    const view = expectStatus(await w.get(`/v1/webhooks/${id}`), 200);
    expect(view.status).toBe("disabled");
    expect(view.disabled_reason).toContain("410");
  });

  it("skips an event already delivered (a duplicate message), and a deleted webhook's", async () => {
    const { w, key, id } = await registered("ok");
    const m = message(id);
    await deliverBatch(QUEUE, [m]);
    await deliverBatch(QUEUE, [m]);
    expect(await received(key)).toHaveLength(1);
    expectStatus(await w.del(`/v1/webhooks/${id}`), 200);
    const gone = await deliverBatch(QUEUE, [message(id)]);
    expect(gone.result.explicitAcks).toHaveLength(1);
    expect(await received(key)).toHaveLength(1);
    // A malformed message is dropped, not retried.
    const bad = await deliverBatch(QUEUE, [{ nonsense: true }]);
    expect(bad.delays).toEqual([]);
  });

  it("the dead-letter queue records that it gave up", async () => {
    const { w, id } = await registered("fail");
    await deliverBatch(DLQ, [message(id)]);
    const list = expectStatus(await w.get(`/v1/webhooks/${id}/deliveries`), 200);
    expect(list.deliveries).toHaveLength(1);
    expect(list.deliveries[0]).toMatchObject({
      ok: false,
      status: null,
      attempt: RETRY_DELAYS.length + 1,
    });
    expect(list.deliveries[0].error).toContain("gave up");
  });

  it("keeps the last 100 attempts of a webhook", async () => {
    const { w, id } = await registered("ok");
    for (let i = 0; i < 11; i++) {
      await deliverBatch(
        QUEUE,
        Array.from({ length: 10 }, () => message(id)),
      );
    }
    const list = expectStatus(await w.get(`/v1/webhooks/${id}/deliveries?limit=1000`), 200);
    expect(list.deliveries).toHaveLength(100);
  }, 60_000);
});

describe("catch-up and delivery without the queue", () => {
  it("the minute's cron sends what no request dispatched", async () => {
    const w = newWallet();
    const { key, url } = hook();
    const created = await register(w, key, { url });
    const memory = await w.storeNew("Stored, then as if its dispatch had never run");
    await receivedAtLeast(key, 1);
    // The webhook back before the event, and no record of its delivery: as after a dispatch
    // that never ran (a write by a background job, an invocation that ended first).
    await withDb(async (db) => {
      await db.execute(sql`UPDATE webhooks SET cursor = cursor - 1 WHERE id = ${created.id}::uuid`);
      await db.execute(sql`DELETE FROM webhook_deliveries WHERE webhook_id = ${created.id}::uuid`);
    });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env as Env, ctx);
    await waitOnExecutionContext(ctx);
    const got = await receivedAtLeast(key, 2);
    expect(got.map((r) => r.payload.data.memory_id)).toEqual([memory, memory]);
    // The same event again: at-least-once, with the same webhook-id.
    expect(got[0]?.headers["webhook-id"]).toBe(got[1]?.headers["webhook-id"]);
    const feed = expectStatus(await w.get("/v1/changes?since=now"), 200);
    expect(expectStatus(await w.get(`/v1/webhooks/${created.id}`), 200).cursor).toBe(
      feed.next_cursor,
    );
  });

  it("without the WEBHOOKS_QUEUE binding, delivers in-process after the response", async () => {
    const noQueue = workerWith({ ...(env as Env), WEBHOOKS_QUEUE: undefined });
    const w = newWallet(noQueue);
    const { key, url } = hook();
    await register(w, key, { url });
    const id = await w.storeNew("Delivered without a queue");
    // workerWith waits for the work after the response.
    const got = await received(key);
    expect(kindsOf(got)).toEqual(["memory.stored"]);
    expect(got[0]?.verified).toBe(true);
    expect(got[0]?.payload.data.memory_id).toBe(id);
  });

  it("tells webhooks of an expiry at the minute's catch-up, with no write or read after it", async () => {
    const w = newWallet();
    const { key, url } = hook();
    await register(w, key, { url, events: ["memory.expired"] });
    const memory = await w.storeNew("A note that will expire", {
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    // Time passes: the expiry comes due, and nothing writes or reads the feed.
    await withDb((db) =>
      db.execute(
        sql`UPDATE memories SET expires_at = now() - interval '1 second' WHERE id = ${memory}::uuid`,
      ),
    );
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env as Env, ctx);
    await waitOnExecutionContext(ctx);
    const got = await receivedAtLeast(key, 1);
    expect(kindsOf(got)).toEqual(["memory.expired"]);
    expect(got[0]?.payload.data.memory_id).toBe(memory);
    expect(got[0]?.verified).toBe(true);
  });

  // Store-to-arrival latency is a figure of `npm run bench -- --only changes` (no wall-clock
  // threshold here): this checks that every one of a burst of stores arrives, verified.
  it("delivers every one of a burst of stores, each verified", async () => {
    const w = newWallet();
    const { key, url } = hook();
    await register(w, key, { url });
    const n = 20;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await w.store(`burst ${i} ${crypto.randomUUID()}`));
    const got = await receivedAtLeast(key, n, 20_000);
    expect(got.map((r) => r.payload.data.memory_id).sort()).toEqual([...ids].sort());
    expect(got.every((r) => r.verified)).toBe(true);
  });
});
