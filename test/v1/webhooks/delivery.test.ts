/**
 * Events reach the receiver through the suite's real webhooks queue (simulated by the pool),
 * signed so that `standardwebhooks` verifies every one; filters; content; the test delivery;
 * the record of attempts; a redirect never followed; a 500 retried until it succeeds.
 */
import { describe, expect, it } from "vitest";
import { expectStatus, type Json, newWallet, UUID } from "../../helpers";
import { hook, kindsOf, received, receivedAtLeast, register } from "./fixtures";

describe("webhook deliveries", () => {
  it("a store, a PATCH and a delete reach the receiver, each verified, as Standard Webhooks", async () => {
    const w = newWallet();
    const { key, url } = hook();
    const created = await register(w, key, { url });
    const id = await w.storeNew("The ferry leaves at seven", { namespace: "travel" });
    expectStatus(await w.patch(`/v1/memories/${id}`, { importance: 0.9 }), 200);
    expectStatus(await w.del(`/v1/memories/${id}`), 200);
    // Deliveries of one webhook go out at once, unordered (docs/webhooks.md): the events are
    // put in the feed's order, which each event's id places.
    const feed = expectStatus(await w.get("/v1/changes"), 200);
    const inFeed = (r: { payload: { data: { id: string } } }) =>
      feed.changes.findIndex((c: Json) => c.id === r.payload.data.id);
    const got = (await receivedAtLeast(key, 3)).sort((a, b) => inFeed(a) - inFeed(b));
    expect(got.map((r) => [r.verified, r.status, r.error])).toEqual([
      [true, 200, null],
      [true, 200, null],
      [true, 200, null],
    ]);
    expect(kindsOf(got)).toEqual(["memory.stored", "memory.updated", "memory.deleted"]);
    for (const r of got) {
      expect(r.headers["content-type"]).toBe("application/json");
      // The event's id is the webhook-id: the receiver's idempotency key.
      expect(r.headers["webhook-id"]).toBe(r.payload.data.id);
      expect(r.headers["webhook-id"]).toMatch(UUID);
      expect(Number(r.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
      expect(r.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(r.payload.timestamp).toBe(r.payload.data.at);
      expect(r.payload.data).toMatchObject({
        kind: r.payload.type,
        memory_id: id,
        namespace: "travel",
      });
      expect(r.payload.data.content).toBeUndefined();
    }
    expect(got[1]?.payload.data.fields).toEqual(["importance"]);
    // The same events as the feed answers them.
    expect(got.map((r) => r.payload.data)).toEqual(feed.changes);

    // Every attempt is recorded, newest first, with status and latency.
    const list = expectStatus(await w.get(`/v1/webhooks/${created.id}/deliveries`), 200);
    expect(list.deliveries.map((d: Json) => d.kind).sort()).toEqual([
      "memory.deleted",
      "memory.stored",
      "memory.updated",
    ]);
    const times = list.deliveries.map((d: Json) => Date.parse(d.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const d of list.deliveries) {
      expect(d).toMatchObject({ ok: true, status: 200, error: null, attempt: 1 });
      expect(d.latency_ms).toBeGreaterThanOrEqual(0);
    }
    const after = expectStatus(await w.get(`/v1/webhooks/${created.id}`), 200);
    expect(after.cursor).toBe(feed.next_cursor);
  });

  it("sends only the events and namespace asked for, with content when asked", async () => {
    const w = newWallet();
    const { key, url } = hook();
    await register(w, key, {
      url,
      events: ["memory.stored"],
      namespace: "work",
      include_content: true,
    });
    const elsewhere = await w.storeNew("Lunch is at noon", { namespace: "home" });
    const id = await w.storeNew("The deploy is on Thursday", { namespace: "work" });
    expectStatus(await w.patch(`/v1/memories/${id}`, { importance: 0.8 }), 200);
    expectStatus(await w.patch(`/v1/memories/${elsewhere}`, { importance: 0.8 }), 200);
    const last = await w.storeNew("The retro is on Friday", { namespace: "work" });
    const got = await receivedAtLeast(key, 2);
    // Give a stray delivery the time to arrive before counting.
    await new Promise((r) => setTimeout(r, 300));
    const all = await received(key);
    // In either order: deliveries of one webhook go out at once (docs/webhooks.md).
    expect(
      all
        .map((r) => [r.payload.type, r.payload.data.memory_id, r.payload.data.content])
        .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
    ).toEqual([
      ["memory.stored", id, "The deploy is on Thursday"],
      ["memory.stored", last, "The retro is on Friday"],
    ]);
    expect(got.every((r) => r.verified)).toBe(true);
  });

  it("the test delivery is signed, sent now, and answered with its attempt", async () => {
    const w = newWallet();
    const { key, url } = hook();
    const created = await register(w, key, { url });
    const res = expectStatus(await w.post(`/v1/webhooks/${created.id}/test`), 200);
    expect(res.delivery).toMatchObject({
      kind: "webhook.test",
      ok: true,
      status: 200,
      error: null,
      attempt: 1,
    });
    const [got] = await received(key);
    expect(got?.verified).toBe(true);
    expect(got?.payload).toMatchObject({
      type: "webhook.test",
      data: { id: res.delivery.event_id, kind: "webhook.test", webhook_id: created.id },
    });
    const list = expectStatus(await w.get(`/v1/webhooks/${created.id}/deliveries`), 200);
    expect(list.deliveries[0]).toEqual(res.delivery);
  });

  it("never follows a redirect: the 3xx is a failed attempt, the target is not reached", async () => {
    const w = newWallet();
    const { key, url } = hook("redirect");
    const created = await register(w, key, { url });
    const res = expectStatus(await w.post(`/v1/webhooks/${created.id}/test`), 200);
    expect(res.delivery).toMatchObject({ ok: false, status: 302 });
    expect(res.delivery.error).toContain("redirect not followed");
    expect(await received(key)).toHaveLength(1);
    expect(await received(`${key}-redirected`)).toEqual([]);
    // The test delivery leaves the webhook's health alone.
    expect(expectStatus(await w.get(`/v1/webhooks/${created.id}`), 200).status).toBe("active");
  });

  it("retries an event its endpoint answered 500, until it succeeds (same webhook-id)", async () => {
    const w = newWallet();
    const { key, url } = hook("fail-once");
    const created = await register(w, key, { url });
    await w.storeNew("The plumber comes on Monday");
    // The first attempt fails; the queue retries it after 5 s.
    const got = await receivedAtLeast(key, 2, 20_000);
    expect(got.map((r) => r.status)).toEqual([500, 200]);
    expect(got[0]?.headers["webhook-id"]).toBe(got[1]?.headers["webhook-id"]);
    expect(got.every((r) => r.verified)).toBe(true);
    const list = expectStatus(await w.get(`/v1/webhooks/${created.id}/deliveries`), 200);
    expect(list.deliveries.map((d: Json) => [d.attempt, d.ok, d.status])).toEqual([
      [2, true, 200],
      [1, false, 500],
    ]);
    expect(list.deliveries[1].error).toContain("HTTP 500");
    const after = expectStatus(await w.get(`/v1/webhooks/${created.id}`), 200);
    expect(after).toMatchObject({ status: "active", failing_since: null });
  }, 30_000);
});
