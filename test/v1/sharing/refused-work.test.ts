/**
 * A refused write through a grant costs no embedding: its free call is given back, so an
 * embedding made before the refusal would be paid work done for free. Counted at the fake
 * embedding provider, under a model name of this test's own (as test/v1/paid-work.test.ts).
 */
import { describe, expect, it } from "vitest";
import { expectError, newWallet } from "../../helpers";
import { callsOf } from "../../providers";
import { countedWorker } from "../../worker-with";
import { as, grant } from "./fixtures";

describe("refused shared writes", () => {
  it("embed nothing: store, batch store and PATCH with content", async () => {
    const { model, worker } = countedWorker("sharing-refused");
    const owner = newWallet(worker);
    const reader = newWallet(worker);
    const stranger = newWallet(worker);
    const id = await owner.store("The boiler is serviced every October", { namespace: "home" });
    await grant(owner, reader, "home", "read");
    const before = await callsOf(model);
    for (const [w, status] of [
      [reader, 403],
      [stranger, 404],
    ] as const) {
      const code = status === 403 ? "FORBIDDEN" : "NOT_FOUND";
      const store = await w.post(as("/v1/store", owner), { content: "new", namespace: "home" });
      expectError(store, status, code);
      const batch = await w.post(as("/v1/store/batch", owner), {
        memories: [{ content: "one", namespace: "home" }],
      });
      expectError(batch, status, code);
      const patch = await w.patch(as(`/v1/memories/${id}`, owner), { content: "changed" });
      expectError(patch, status, code);
      const many = await w.patch(as("/v1/memories/batch", owner), {
        updates: [{ id, content: "changed again" }],
      });
      expect(many.body).toMatchObject({ updated: 0, errors: [{ id, status }] });
    }
    expect(await callsOf(model)).toEqual(before);
    // The walk can fail: an allowed shared write does embed.
    await grant(owner, reader, "home", "write");
    expect((await reader.patch(as(`/v1/memories/${id}`, owner), { content: "moved" })).status).toBe(
      200,
    );
    expect((await callsOf(model)).embeddings).toBeGreaterThan(before.embeddings);
  });
});
