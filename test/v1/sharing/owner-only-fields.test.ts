/**
 * `pinned` and `immutable` are the owner's, as the pin routes are: a grantee with a write grant
 * may not set or clear them through PATCH (403 FORBIDDEN) or a batch update (a per-item 403),
 * nor store a memory pinned or immutable (403, the whole batch), and nothing is embedded or
 * written for such a request (issue #44).
 */
import { describe, expect, it } from "vitest";
import { expectError, expectStatus, type Json, newWallet, uniqueText } from "../../helpers";
import { callsOf } from "../../providers";
import { countedWorker } from "../../worker-with";
import { history } from "../memories/fixtures";
import { as, grant } from "./fixtures";

const OWNER_ONLY: Json[] = [
  { pinned: true },
  { pinned: false },
  { immutable: true },
  { immutable: false },
  { pinned: true, importance: 0.9 },
  { immutable: true, content: "frozen by the grantee" },
];

describe("owner-only fields through a grant", () => {
  it("a grantee's PATCH of pinned or immutable is a 403; nothing embedded or written", async () => {
    const { model, worker } = countedWorker("owner-only");
    const owner = newWallet(worker);
    const agent = newWallet(worker);
    const content = uniqueText("shared");
    const id = await owner.store(content, { namespace: "team", pinned: true });
    await grant(owner, agent, "team", "write");
    const before = await callsOf(model);
    const memory = await owner.getMemory(id);
    for (const body of OWNER_ONLY) {
      const res = await agent.patch(as(`/v1/memories/${id}`, owner), body);
      expectError(res, 403, "FORBIDDEN");
      expect(res.body.error.message).toMatch(/owner/);
    }
    expect(await callsOf(model)).toEqual(before);
    expect(await owner.getMemory(id)).toEqual(memory);
    expect(await history(owner, id)).toEqual([]);
    // The grant still writes what it may.
    const written = await agent.patch(as(`/v1/memories/${id}`, owner), { importance: 0.7 });
    expect(expectStatus(written, 200)).toMatchObject({ importance: 0.7, pinned: true });
  });

  it("a batch item that sets them fails alone with a 403, never embedded", async () => {
    const { model, worker } = countedWorker("owner-only-batch");
    const owner = newWallet(worker);
    const agent = newWallet(worker);
    const a = await owner.store(uniqueText("a"), { namespace: "team" });
    const b = await owner.store(uniqueText("b"), { namespace: "team" });
    await grant(owner, agent, "team", "write");
    const before = await callsOf(model);
    const answer = expectStatus(
      await agent.patch(as("/v1/memories/batch", owner), {
        updates: [
          { id: a, pinned: true },
          { id: a, immutable: true, content: uniqueText("frozen") },
          { id: b, importance: 0.3 },
          { id: b, pinned: false },
        ],
      }),
      200,
    );
    expect(answer.results.map((r: Json) => [r.id, r.status ?? 200])).toEqual([
      [a, 403],
      [a, 403],
      [b, 200],
      [b, 403],
    ]);
    expect(answer.errors.every((e: Json) => /owner/.test(e.message))).toBe(true);
    expect(answer.tokens_used).toBe(0);
    expect(await callsOf(model)).toEqual(before);
    expect(await owner.getMemory(a)).toMatchObject({ pinned: false, immutable: false });
    expect(await history(owner, a)).toEqual([]);
    expect(await owner.getMemory(b)).toMatchObject({ importance: 0.3, pinned: false });
  });

  it("a grantee's store or batch store that pins or freezes is a 403; nothing embedded or written", async () => {
    const { model, worker } = countedWorker("owner-only-store");
    const owner = newWallet(worker);
    const agent = newWallet(worker);
    await grant(owner, agent, "team", "write");
    const before = await callsOf(model);
    for (const fields of [{ pinned: true }, { immutable: true }]) {
      const one = { content: uniqueText("pinned by the grantee"), namespace: "team", ...fields };
      expectError(await agent.post(as("/v1/store", owner), one), 403, "FORBIDDEN");
      const batch = { memories: [{ content: uniqueText("plain"), namespace: "team" }, one] };
      expectError(await agent.post(as("/v1/store/batch", owner), batch), 403, "FORBIDDEN");
    }
    expect(await callsOf(model)).toEqual(before);
    expect(expectStatus(await owner.get("/v1/memories/count"), 200).count).toBe(0);
    // pinned: false is the default, and a plain shared store still works.
    const plain = { content: uniqueText("plain"), namespace: "team", pinned: false };
    expectStatus(await agent.post(as("/v1/store", owner), plain), 201);
  });

  it("the owner still pins and freezes, by PATCH and in a batch", async () => {
    const owner = newWallet();
    const agent = newWallet();
    const a = await owner.store(uniqueText("a"), { namespace: "team" });
    const b = await owner.store(uniqueText("b"), { namespace: "team" });
    await grant(owner, agent, "team", "write");
    expect(expectStatus(await owner.patch(`/v1/memories/${a}`, { pinned: true }), 200).pinned).toBe(
      true,
    );
    const answer = expectStatus(
      await owner.patch("/v1/memories/batch", {
        updates: [
          { id: a, pinned: false },
          { id: b, immutable: true },
        ],
      }),
      200,
    );
    expect(answer).toMatchObject({ updated: 2, errors: [] });
    expect(await owner.getMemory(a)).toMatchObject({ pinned: false });
    expect(await owner.getMemory(b)).toMatchObject({ immutable: true });
    // The owner naming itself works as without sharing.
    const self = await owner.patch(as(`/v1/memories/${a}`, owner), { pinned: true });
    expect(expectStatus(self, 200).pinned).toBe(true);
  });
});
