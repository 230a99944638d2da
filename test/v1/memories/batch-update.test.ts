/** The batch forms of update: PATCH /v1/memories/batch and POST /v1/memories/batch-update. */
import { describe, expect, it } from "vitest";
import {
  expectError,
  expectStatus,
  type Json,
  MISSING_ID,
  newWallet,
  uniqueText,
  type Wallet,
} from "../../helpers";
import { history, searchIds } from "./fixtures";

describe("batch update", () => {
  for (const [method, path] of [
    ["PATCH", "/v1/memories/batch"],
    ["POST", "/v1/memories/batch-update"],
  ] as const) {
    describe(`${method} ${path}`, () => {
      const send = (w: Wallet, body: unknown) => w.call(method, path, body);
      /** The answer of a batch whose items were all read (200, whatever each item's outcome). */
      const update = async (w: Wallet, body: unknown): Promise<Json> =>
        expectStatus(await send(w, body), 200);

      it("applies every valid update and writes history", async () => {
        const w = newWallet();
        const a = await w.store(uniqueText("a"));
        const b = await w.store(uniqueText("b"), { tags: ["keep"] });
        const content = `saxophone ${uniqueText("rewritten")}`;
        const answer = await update(w, {
          updates: [
            { id: a, importance: 0.95, memory_type: "preference" },
            { id: b, content, pinned: true },
          ],
        });
        expect(answer).toMatchObject({ updated: 2, errors: [] });
        expect(Object.keys(answer).sort()).toEqual([
          "errors",
          "failed",
          "memories",
          "results",
          "tokens_used",
          "updated",
        ]);

        const memoryA = await w.getMemory(a);
        const memoryB = await w.getMemory(b);
        expect(memoryA).toMatchObject({
          importance: 0.95,
          memory_type: "preference",
        });
        expect(memoryB).toMatchObject({
          content,
          pinned: true,
          metadata: { tags: ["keep"] },
        });
        // Client extras: the updated memories in item order, as GET shows them; each item's
        // outcome; no failures; the embedding tokens of the one new content.
        expect(answer.memories).toEqual([memoryA, memoryB]);
        expect(answer.results).toEqual([
          { id: a, updated: true },
          { id: b, updated: true },
        ]);
        expect(answer.failed).toBe(0);
        expect(Number.isInteger(answer.tokens_used)).toBe(true);
        expect(answer.tokens_used).toBeGreaterThan(0);
        expect(await searchIds(w, "saxophone")).toEqual([b]);
        expect((await history(w, a)).map((e) => e.changes)).toEqual([
          { importance: 0.95, memory_type: "preference" },
        ]);
        expect((await history(w, b)).map((e) => e.changes)).toEqual([{ content, pinned: true }]);
      });

      it("reports per-item failures and still applies the valid items", async () => {
        const w = newWallet();
        const other = newWallet();
        const ok1 = await w.store(uniqueText("ok1"));
        const locked = await w.store(uniqueText("locked"), { immutable: true });
        const invalid = await w.store(uniqueText("invalid"));
        const foreign = await other.store(uniqueText("foreign"), { importance: 0.3 });
        const ok2 = await w.store(uniqueText("ok2"));

        const answer = await update(w, {
          updates: [
            { id: ok1, importance: 0.11 },
            { id: MISSING_ID, importance: 0.2 },
            { id: locked, importance: 0.2 },
            { id: invalid, importance: 5 },
            { id: foreign, importance: 0.2 },
            { id: ok2, namespace: "batch-ns" },
          ],
        });
        expect(answer.updated).toBe(2);
        expect(answer.errors.map((e: Json) => [e.id, e.status])).toEqual([
          [MISSING_ID, 404],
          [locked, 409],
          [invalid, 422],
          [foreign, 404],
        ]);
        for (const e of answer.errors) {
          expect(typeof e.message).toBe("string");
          expect(e.message.length).toBeGreaterThan(0);
        }
        // Every item's outcome in order, failures with the same status and message as errors.
        const [e404, e409, e422, eForeign] = answer.errors;
        expect(answer.results).toEqual([
          { id: ok1, updated: true },
          { id: MISSING_ID, updated: false, status: 404, error: e404.message },
          { id: locked, updated: false, status: 409, error: e409.message },
          { id: invalid, updated: false, status: 422, error: e422.message },
          { id: foreign, updated: false, status: 404, error: eForeign.message },
          { id: ok2, updated: true },
        ]);
        expect(answer.failed).toBe(4);
        // No content changed: nothing was embedded.
        expect(answer.tokens_used).toBe(0);
        // Only the caller's updated memories, never another wallet's.
        expect(answer.memories.map((m: Json) => m.id)).toEqual([ok1, ok2]);
        expect(answer.memories[0]).toMatchObject({ id: ok1, importance: 0.11 });
        expect(answer.memories[1]).toMatchObject({ id: ok2, namespace: "batch-ns" });

        expect((await w.getMemory(ok1)).importance).toBe(0.11);
        expect((await w.getMemory(ok2)).namespace).toBe("batch-ns");
        expect((await w.getMemory(locked)).importance).toBe(0.5);
        expect((await w.getMemory(invalid)).importance).toBe(0.5);
        expect((await other.getMemory(foreign)).importance).toBe(0.3);
        expect(await history(w, invalid)).toEqual([]);
        expect(await history(other, foreign)).toEqual([]);
      });

      it("reports malformed items with status 422 (missing id, bad id, no fields)", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("x"));
        // Each malformed item, and the id its error and its result name.
        const malformed: Array<[item: unknown, named: string | null]> = [
          [{ importance: 0.2 }, null],
          [{ id: "not-a-uuid", importance: 0.2 }, "not-a-uuid"],
          [{ id }, id],
          ["not an object", null],
          [{ id, expires_at: new Date(Date.now() - 1000).toISOString() }, id],
        ];
        const answer = await update(w, { updates: malformed.map(([item]) => item) });
        expect(answer.updated).toBe(0);
        expect(answer.errors.map((e: Json) => [e.id, e.status])).toEqual(
          malformed.map(([, named]) => [named, 422]),
        );
        expect(answer.results.map((r: Json) => [r.id, r.updated, r.status])).toEqual(
          malformed.map(([, named]) => [named, false, 422]),
        );
        expect(answer.failed).toBe(5);
        expect(answer.memories).toEqual([]);
        expect(await history(w, id)).toEqual([]);
      });

      it("items run in order: locking an id makes a later item on it 409", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("seq"));
        const answer = await update(w, {
          updates: [
            { id, importance: 0.7 },
            { id, immutable: true },
            { id, importance: 0.1 },
          ],
        });
        expect(answer.updated).toBe(2);
        expect(answer.errors.map((e: Json) => [e.id, e.status])).toEqual([[id, 409]]);
        expect(await w.getMemory(id)).toMatchObject({ importance: 0.7, immutable: true });
        // Each updated memory as that item left it.
        expect(answer.memories).toHaveLength(2);
        expect(answer.memories[0]).toMatchObject({ id, importance: 0.7, immutable: false });
        expect(answer.memories[1]).toMatchObject({ id, importance: 0.7, immutable: true });
      });

      it("rejects the whole request with 422 when updates is missing, empty, over 100 or not JSON", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("untouched"));
        const bodies: unknown[] = [
          {},
          { updates: [] },
          { updates: Array.from({ length: 101 }, () => ({ id, importance: 0.9 })) },
          { updates: "nope" },
          { updates: { id, importance: 0.9 } },
        ];
        for (const body of bodies) {
          expectError(await send(w, body), 422, "VALIDATION_ERROR");
        }
        const malformed = await w.raw(method, path, '{"updates": [');
        expectError(malformed, 422, "VALIDATION_ERROR");
        expect((await w.getMemory(id)).importance).toBe(0.5);
        expect(await history(w, id)).toEqual([]);
      });

      it("accepts exactly 100 updates", async () => {
        const w = newWallet();
        const id = await w.store(uniqueText("hundred"));
        const updates = [
          { id, importance: 0.8 },
          ...Array.from({ length: 99 }, () => ({ id: crypto.randomUUID(), importance: 0.8 })),
        ];
        const answer = await update(w, { updates });
        expect(answer.updated).toBe(1);
        expect(answer.errors).toHaveLength(99);
        expect(answer.errors.every((e: Json) => e.status === 404)).toBe(true);
        expect((await w.getMemory(id)).importance).toBe(0.8);
      });
    });
  }
});
