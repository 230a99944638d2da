/** GET /v1/memories/:id/history: the changes each PATCH made, oldest first. */
import { describe, expect, it } from "vitest";
import { type ApiResponse, ISO, newWallet, UUID } from "../../helpers";
import { expectOwnLiveMemoryOnly, storeTexts } from "./fixtures";

describe("GET /v1/memories/:id/history", () => {
  it("is empty after a store and records each PATCH, oldest first", async () => {
    const w = newWallet();
    const [a = ""] = await storeTexts(w, 1);
    expect(await w.getOk(`/v1/memories/${a}/history`)).toEqual({ history: [] });

    const p1 = await w.patch(`/v1/memories/${a}`, { importance: 0.8 });
    expect(p1.status, JSON.stringify(p1.body)).toBe(200);
    const p2 = await w.patch(`/v1/memories/${a}`, { memory_type: "decision", pinned: true });
    expect(p2.status, JSON.stringify(p2.body)).toBe(200);

    const res: ApiResponse = await w.get(`/v1/memories/${a}/history`);
    expect(res.status).toBe(200);
    expect(res.body.history).toHaveLength(2);
    const [h1, h2] = res.body.history;
    expect(h1.memory_id).toBe(a);
    expect(h1.id).toMatch(UUID);
    expect(h1.created_at).toMatch(ISO);
    expect(h1.changes).toEqual({ importance: 0.8 });
    expect(h2.changes).toEqual({ memory_type: "decision", pinned: true });
  });

  it("answers 404 for an unknown, deleted or another wallet's memory, 422 for a bad id", async () => {
    const w = newWallet();
    const [a = ""] = await storeTexts(w, 1);
    expect((await w.patch(`/v1/memories/${a}`, { importance: 0.9 })).status).toBe(200);
    await expectOwnLiveMemoryOnly(w, a, "history");
  });
});
