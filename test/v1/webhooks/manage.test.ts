/** Registering, listing, getting and deleting webhooks; the secret shown once; the cap. */
import { describe, expect, it } from "vitest";
import { MAX_WEBHOOKS } from "../../../worker/webhooks/register";
import { expectError, expectStatus, ISO, type Json, newWallet, UUID } from "../../helpers";
import { hook, register } from "./fixtures";

const VIEW_KEYS = [
  "created_at",
  "cursor",
  "disabled_at",
  "disabled_reason",
  "events",
  "failing_since",
  "id",
  "include_content",
  "namespace",
  "owner",
  "status",
  "url",
];

describe("webhooks: register, list, get, delete", () => {
  it("registers (201) with the secret shown once, and lists and gets it without", async () => {
    const w = newWallet();
    const { key, url } = hook();
    const created = await register(w, key, {
      url,
      events: ["memory.stored", "memory.deleted"],
      namespace: "work",
      include_content: true,
    });
    expect(Object.keys(created).sort()).toEqual([...VIEW_KEYS, "secret"].sort());
    expect(created).toMatchObject({
      url,
      owner: w.address.toLowerCase(),
      events: ["memory.stored", "memory.deleted"],
      namespace: "work",
      include_content: true,
      status: "active",
      failing_since: null,
      disabled_at: null,
      disabled_reason: null,
      cursor: "0",
    });
    expect(created.id).toMatch(UUID);
    expect(created.created_at).toMatch(ISO);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const list = expectStatus(await w.get("/v1/webhooks"), 200);
    expect(list.webhooks).toHaveLength(1);
    expect(Object.keys(list.webhooks[0]).sort()).toEqual(VIEW_KEYS);
    const { secret: _secret, ...view } = created;
    expect(list.webhooks[0]).toEqual(view);
    const one = expectStatus(await w.get(`/v1/webhooks/${created.id}`), 200);
    expect(one).toEqual(view);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    expect(JSON.stringify(one)).not.toContain(created.secret);
  });

  it("defaults: every event, every namespace, no content; the cursor starts at the feed's end", async () => {
    const w = newWallet();
    await w.store("something before the webhook");
    const created = expectStatus(await w.post("/v1/webhooks", { url: hook().url }), 201);
    expect(created).toMatchObject({ events: [], namespace: null, include_content: false });
    expect(Number(created.cursor)).toBeGreaterThan(0);
  });

  it("deletes (then 404), and another wallet's webhook is a 404 everywhere", async () => {
    const w = newWallet();
    const created = expectStatus(await w.post("/v1/webhooks", { url: hook().url }), 201);
    const stranger = newWallet();
    for (const [method, path] of [
      ["GET", `/v1/webhooks/${created.id}`],
      ["DELETE", `/v1/webhooks/${created.id}`],
      ["POST", `/v1/webhooks/${created.id}/test`],
      ["GET", `/v1/webhooks/${created.id}/deliveries`],
    ] as const) {
      expectError(await stranger.call(method, path), 404, "NOT_FOUND");
    }
    expect(expectStatus(await stranger.get("/v1/webhooks"), 200).webhooks).toEqual([]);
    expect(expectStatus(await w.del(`/v1/webhooks/${created.id}`), 200)).toEqual({
      deleted: true,
      id: created.id,
    });
    expectError(await w.get(`/v1/webhooks/${created.id}`), 404, "NOT_FOUND");
    expectError(await w.del(`/v1/webhooks/${created.id}`), 404, "NOT_FOUND");
    expect(expectStatus(await w.get("/v1/webhooks"), 200).webhooks).toEqual([]);
  });

  it(`allows ${MAX_WEBHOOKS} webhooks per wallet, then 409 until one is deleted`, async () => {
    const w = newWallet();
    const made: Json[] = [];
    for (let i = 0; i < MAX_WEBHOOKS; i++) {
      made.push(expectStatus(await w.post("/v1/webhooks", { url: hook().url }), 201));
    }
    const over = await w.post("/v1/webhooks", { url: hook().url });
    expectError(over, 409, "CONFLICT");
    expect(over.body.error.message).toContain(`at most ${MAX_WEBHOOKS} webhooks`);
    expect(expectStatus(await w.get("/v1/webhooks"), 200).webhooks).toHaveLength(MAX_WEBHOOKS);
    // Another wallet is not counted against it.
    expectStatus(await newWallet().post("/v1/webhooks", { url: hook().url }), 201);
    expectStatus(await w.del(`/v1/webhooks/${made[0].id}`), 200);
    expectStatus(await w.post("/v1/webhooks", { url: hook().url }), 201);
  });

  it("refuses bad input with 422 and the field", async () => {
    const w = newWallet();
    const cases: Array<[Json, string]> = [
      [{}, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "ftp://example.com/x" }, "url"],
      [{ url: hook().url, events: ["memory.exploded"] }, "events.0"],
      [{ url: hook().url, namespace: "" }, "namespace"],
      [{ url: hook().url, owner: "0x123" }, "owner"],
      [{ url: hook().url, include_content: "yes" }, "include_content"],
      [{ url: `https://example.com/${"x".repeat(2100)}` }, "url"],
    ];
    for (const [body, field] of cases) {
      const res = await w.post("/v1/webhooks", body);
      expectError(res, 422, "VALIDATION_ERROR");
      expect(
        res.body.error.details.issues.map((i: Json) => i.path),
        JSON.stringify(body).slice(0, 80),
      ).toContain(field);
    }
    expect(expectStatus(await w.get("/v1/webhooks"), 200).webhooks).toEqual([]);
  });

  it("?owner= is refused (403): a grantee names the owner in the body", async () => {
    const w = newWallet();
    const owner = newWallet();
    const res = await w.post(`/v1/webhooks?owner=${owner.address}`, { url: hook().url });
    expectError(res, 403, "FORBIDDEN");
  });
});
