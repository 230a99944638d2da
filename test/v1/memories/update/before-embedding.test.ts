/**
 * No embedding for an update that is refused: a refused PATCH gives its charge back, and a
 * batch update's failed items are paid by nothing but the call, so an embedding made before
 * the refusal would be paid work done for free (issue #44). Counted at the fake embedding
 * provider under a model name of each test's own (as test/v1/paid-work.test.ts does), and the
 * texts a batch embeds read from the provider's last request.
 */
import { describe, expect, it } from "vitest";
import {
  expectError,
  expectStatus,
  type Json,
  MISSING_ID,
  newWallet,
  uniqueText,
} from "../../../helpers";
import { callsOf, lastRequest } from "../../../providers";
import { countedWorker } from "../../../worker-with";
import { history } from "../fixtures";

const PATCHES = 30;

describe("a refused PATCH with new content embeds nothing", () => {
  it(`${PATCHES} PATCHes of a missing memory: 404 each, no embedding`, async () => {
    const { model, worker } = countedWorker("update-refused");
    const w = newWallet(worker);
    const before = await callsOf(model);
    for (let i = 0; i < PATCHES; i++) {
      const res = await w.patch(`/v1/memories/${MISSING_ID}`, { content: `free work ${i}` });
      expectError(res, 404, "NOT_FOUND");
    }
    expect(await callsOf(model)).toEqual(before);
  });

  it(`${PATCHES} PATCHes of another wallet's memory: 404 each, no embedding, unchanged`, async () => {
    const { model, worker } = countedWorker("update-refused");
    const owner = newWallet(worker);
    const other = newWallet(worker);
    const content = uniqueText("foreign");
    const id = await owner.store(content);
    const before = await callsOf(model);
    for (let i = 0; i < PATCHES; i++) {
      const res = await other.patch(`/v1/memories/${id}`, { content: `hijack ${i}` });
      expectError(res, 404, "NOT_FOUND");
    }
    expect(await callsOf(model)).toEqual(before);
    expect((await owner.getMemory(id)).content).toBe(content);
    expect(await history(owner, id)).toEqual([]);
  });

  it(`${PATCHES} PATCHes of an immutable memory: 409 each, no embedding, unchanged`, async () => {
    const { model, worker } = countedWorker("update-refused");
    const w = newWallet(worker);
    const content = uniqueText("frozen");
    const id = await w.store(content, { immutable: true });
    const before = await callsOf(model);
    for (let i = 0; i < PATCHES; i++) {
      expectError(await w.patch(`/v1/memories/${id}`, { content: `thaw ${i}` }), 409, "CONFLICT");
    }
    expect(await callsOf(model)).toEqual(before);
    expect((await w.getMemory(id)).content).toBe(content);
  });

  it("a deleted memory: 404, no embedding; the walk can fail: a live one embeds once", async () => {
    const { model, worker } = countedWorker("update-refused");
    const w = newWallet(worker);
    const gone = await w.store(uniqueText("gone"));
    const live = await w.store(uniqueText("live"));
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);
    const before = await callsOf(model);
    expectError(await w.patch(`/v1/memories/${gone}`, { content: "back" }), 404, "NOT_FOUND");
    expect(await callsOf(model)).toEqual(before);
    const content = uniqueText("rewritten");
    expect(expectStatus(await w.patch(`/v1/memories/${live}`, { content }), 200).content).toBe(
      content,
    );
    expect((await callsOf(model)).embeddings).toBe(before.embeddings + 1);
    expect((await lastRequest(model)).body.input).toEqual([content]);
  });
});

describe("a batch update embeds only the contents of items that pass", () => {
  it("100 missing ids with content: 100 per-item 404s, no embedding", async () => {
    const { model, worker } = countedWorker("update-refused");
    const w = newWallet(worker);
    const updates = Array.from({ length: 100 }, (_, i) => ({
      id: crypto.randomUUID(),
      content: `free work ${i}`,
    }));
    const before = await callsOf(model);
    const answer = expectStatus(await w.patch("/v1/memories/batch", { updates }), 200);
    expect(answer).toMatchObject({ updated: 0, failed: 100, tokens_used: 0, memories: [] });
    expect(answer.errors.map((e: Json) => [e.id, e.status])).toEqual(
      updates.map((u) => [u.id, 404]),
    );
    expect(await callsOf(model)).toEqual(before);
  });

  it("a mixed batch: one embedding call, of the passing items' contents only", async () => {
    const { model, worker } = countedWorker("update-refused");
    const w = newWallet(worker);
    const other = newWallet(worker);
    const [a, b, locked, gone] = [
      await w.store(uniqueText("a")),
      await w.store(uniqueText("b")),
      await w.store(uniqueText("locked"), { immutable: true }),
      await w.store(uniqueText("gone")),
    ];
    const foreign = await other.store(uniqueText("foreign"));
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);
    const newA = uniqueText("new a");
    const newB = uniqueText("new b");
    const before = await callsOf(model);
    const answer = expectStatus(
      await w.post("/v1/memories/batch-update", {
        updates: [
          { id: a, content: newA },
          { id: MISSING_ID, content: uniqueText("missing") },
          { id: locked, content: uniqueText("locked") },
          { id: foreign, content: uniqueText("foreign") },
          { id: gone, content: uniqueText("gone") },
          { id: b, content: "" },
          { id: b, content: newB, importance: 0.9 },
          { id: a, importance: 0.2 },
        ],
      }),
      200,
    );
    expect(answer.results.map((r: Json) => [r.id, r.status ?? 200])).toEqual([
      [a, 200],
      [MISSING_ID, 404],
      [locked, 409],
      [foreign, 404],
      [gone, 404],
      [b, 422],
      [b, 200],
      [a, 200],
    ]);
    expect(answer.updated).toBe(3);
    expect(answer.tokens_used).toBeGreaterThan(0);
    expect(await callsOf(model)).toEqual({ ...before, embeddings: before.embeddings + 1 });
    expect((await lastRequest(model)).body.input).toEqual([newA, newB]);
    expect(await w.getMemory(a)).toMatchObject({ content: newA, importance: 0.2 });
    expect(await w.getMemory(b)).toMatchObject({ content: newB, importance: 0.9 });
  });

  it("the write checks again: an item made immutable after the check is not written (409)", async () => {
    const { worker } = countedWorker("update-refused");
    const w = newWallet(worker);
    const content = uniqueText("before");
    const id = await w.store(content);
    // The check before the embedding sees the memory mutable; the first item then makes it
    // immutable, so the second item's write statement finds it locked.
    const answer = expectStatus(
      await w.patch("/v1/memories/batch", {
        updates: [
          { id, immutable: true },
          { id, content: uniqueText("after") },
        ],
      }),
      200,
    );
    expect(answer.results.map((r: Json) => r.status ?? 200)).toEqual([200, 409]);
    expect(await w.getMemory(id)).toMatchObject({ content, immutable: true });
    expect((await history(w, id)).map((e) => e.changes)).toEqual([{ immutable: true }]);
  });
});
