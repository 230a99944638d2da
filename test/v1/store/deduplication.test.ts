/**
 * POST /v1/store merges the same content in the same namespace of a wallet into the first
 * memory, by the documented merge rules; immutable and deleted memories are never changed.
 */
import { describe, expect, it } from "vitest";
import { newWallet } from "../../helpers";
import { inHours, tagList } from "./fixtures";

describe("deduplication on store", () => {
  const TEXT = "The deploy pipeline runs every Friday at noon";

  it("merges the same content in the same namespace into the first memory", async () => {
    const w = newWallet();
    const first = await w.post("/v1/store", { content: TEXT });
    const second = await w.post("/v1/store", { content: TEXT });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.body.deduplicated).toBe(false);
    expect(second.body).toMatchObject({ id: first.body.id, stored: true, deduplicated: true });
    expect(await w.memoryCount()).toBe(1);
  });

  it("answers a merge with the memory it merged into, as merged", async () => {
    const w = newWallet();
    const first = await w.post("/v1/store", { content: TEXT, tags: ["ci"], importance: 0.3 });
    const second = await w.post("/v1/store", {
      content: TEXT,
      tags: ["friday"],
      importance: 0.9,
    });
    expect(second.body.deduplicated).toBe(true);
    expect(second.body.memory).toMatchObject({
      id: first.body.id,
      tags: ["ci", "friday"],
      importance: 0.9,
    });
    expect(second.body.memory).toEqual((await w.get(`/v1/memories/${first.body.id}`)).body);
  });

  it("applies the documented merge rules", async () => {
    // Each field: the existing memory's value, the new store's, and the merged memory's.
    const merges: Record<string, [existing: unknown, incoming: unknown, merged: unknown]> = {
      content: [TEXT, `${TEXT}!!!`, `${TEXT}!!!`],
      tags: [
        ["ci", "ops"],
        ["ops", "friday"],
        ["ci", "ops", "friday"],
      ],
      importance: [0.3, 0.9, 0.9],
      metadata: [
        { owner: "alice", team: "infra" },
        { team: "platform", channel: "#deploys" },
        { owner: "alice", team: "platform", channel: "#deploys", tags: ["ci", "ops", "friday"] },
      ],
      memory_type: ["decision", "preference", "decision"],
      session_id: ["s-old", "s-new", "s-old"],
      agent_id: ["agent-old", "agent-new", "agent-old"],
      pinned: [false, true, true],
    };
    const column = (i: 0 | 1 | 2) =>
      Object.fromEntries(Object.entries(merges).map(([field, values]) => [field, values[i]]));
    const w = newWallet();
    const id = await w.store(TEXT, column(0));
    const res = await w.post("/v1/store", column(1));
    expect(res.body).toMatchObject({ id, deduplicated: true });
    const got = await w.get(`/v1/memories/${id}`);
    expect(got.body).toMatchObject({ ...column(2), immutable: false });
    expect(await w.memoryCount()).toBe(1);
  });

  it("keeps the existing content, importance and pin when the new one is shorter, lower and unpinned", async () => {
    const w = newWallet();
    const longer = `${TEXT}...`;
    const id = await w.store(longer, { importance: 0.9, pinned: true });
    const res = await w.post("/v1/store", { content: TEXT, importance: 0.1, pinned: false });
    expect(res.body).toMatchObject({ id, deduplicated: true });
    const got = await w.get(`/v1/memories/${id}`);
    expect(got.body).toMatchObject({ content: longer, importance: 0.9, pinned: true });
  });

  it("keeps the existing content on a tie in length", async () => {
    const w = newWallet();
    const id = await w.store(TEXT);
    const shouting = TEXT.toUpperCase();
    expect(shouting.length).toBe(TEXT.length);
    const res = await w.post("/v1/store", { content: shouting });
    expect(res.body).toMatchObject({ id, deduplicated: true });
    expect((await w.get(`/v1/memories/${id}`)).body.content).toBe(TEXT);
  });

  it("caps the merged tags at 10", async () => {
    const w = newWallet();
    const id = await w.store(TEXT, { tags: tagList(8, "a") });
    await w.post("/v1/store", { content: TEXT, tags: tagList(5, "b") });
    const got = await w.get(`/v1/memories/${id}`);
    expect(got.body.tags).toEqual([...tagList(8, "a"), "b0", "b1"]);
  });

  it("merges expiry: none if either has none, else the later one", async () => {
    const w = newWallet();
    const soon = inHours(1);
    const later = inHours(48);

    const a = await w.store(TEXT, { namespace: "a", expires_at: soon });
    await w.post("/v1/store", { content: TEXT, namespace: "a" });
    expect((await w.get(`/v1/memories/${a}`)).body.expires_at).toBeNull();

    const b = await w.store(TEXT, { namespace: "b" });
    await w.post("/v1/store", { content: TEXT, namespace: "b", expires_at: soon });
    expect((await w.get(`/v1/memories/${b}`)).body.expires_at).toBeNull();

    const c = await w.store(TEXT, { namespace: "c", expires_at: later });
    await w.post("/v1/store", { content: TEXT, namespace: "c", expires_at: soon });
    expect(Date.parse((await w.get(`/v1/memories/${c}`)).body.expires_at)).toBe(Date.parse(later));

    const d = await w.store(TEXT, { namespace: "d", expires_at: soon });
    await w.post("/v1/store", { content: TEXT, namespace: "d", expires_at: later });
    expect(Date.parse((await w.get(`/v1/memories/${d}`)).body.expires_at)).toBe(Date.parse(later));
    expect(await w.memoryCount()).toBe(4);
  });

  it("writes no history entry", async () => {
    const w = newWallet();
    const id = await w.store(TEXT, { importance: 0.2 });
    await w.post("/v1/store", { content: `${TEXT}.`, importance: 0.7 });
    const history = await w.get(`/v1/memories/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.history).toEqual([]);
  });

  it("never changes an immutable memory, but still reports it as the deduplicated id", async () => {
    const w = newWallet();
    const id = await w.store(TEXT, {
      immutable: true,
      importance: 0.2,
      tags: ["locked"],
      metadata: { v: 1 },
    });
    const before = await w.get(`/v1/memories/${id}`);
    const res = await w.post("/v1/store", {
      content: `${TEXT}!!!!`,
      importance: 0.95,
      tags: ["new"],
      metadata: { v: 2, extra: true },
      pinned: true,
      expires_at: inHours(2),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, deduplicated: true });
    const after = await w.get(`/v1/memories/${id}`);
    expect(after.body).toEqual(before.body);
    expect(res.body.memory).toEqual(before.body);
    expect(after.body).toMatchObject({
      content: TEXT,
      importance: 0.2,
      tags: ["locked"],
      metadata: { v: 1, tags: ["locked"] },
      pinned: false,
      immutable: true,
      expires_at: null,
    });
    expect(await w.memoryCount()).toBe(1);
  });

  it("stores the same content in another namespace as a new memory", async () => {
    const w = newWallet();
    const a = await w.store(TEXT, { namespace: "work" });
    const res = await w.post("/v1/store", { content: TEXT, namespace: "home" });
    expect(res.body.deduplicated).toBe(false);
    expect(res.body.id).not.toBe(a);
    const defaultNs = await w.post("/v1/store", { content: TEXT });
    expect(defaultNs.body.deduplicated).toBe(false);
    expect(await w.memoryCount()).toBe(3);
  });

  it("never merges across wallets", async () => {
    const a = newWallet();
    const b = newWallet();
    const aId = await a.store(TEXT, { importance: 0.2, tags: ["a"] });
    const res = await b.post("/v1/store", { content: TEXT, importance: 0.9, tags: ["b"] });
    expect(res.status).toBe(201);
    expect(res.body.deduplicated).toBe(false);
    expect(res.body.id).not.toBe(aId);
    const aMemory = await a.get(`/v1/memories/${aId}`);
    expect(aMemory.body).toMatchObject({ importance: 0.2, tags: ["a"] });
    expect(await a.memoryCount()).toBe(1);
    expect(await b.memoryCount()).toBe(1);
  });

  it("does not deduplicate different content", async () => {
    const w = newWallet();
    const a = await w.post("/v1/store", { content: TEXT });
    const b = await w.post("/v1/store", {
      content: "Quarterly revenue grew twelve percent in Europe",
    });
    expect(b.body.deduplicated).toBe(false);
    expect(b.body.id).not.toBe(a.body.id);
    expect(await w.memoryCount()).toBe(2);
  });

  it("does not merge into a deleted memory", async () => {
    const w = newWallet();
    const id = await w.store(TEXT);
    expect((await w.del(`/v1/memories/${id}`)).status).toBe(200);
    const res = await w.post("/v1/store", { content: TEXT });
    expect(res.body.deduplicated).toBe(false);
    expect(res.body.id).not.toBe(id);
    expect(await w.memoryCount()).toBe(1);
  });

  it("keeps texts that differ in a pronoun apart: each asks about someone else", async () => {
    const w = newWallet();
    const texts = ["What about Kate?", "What about you Kate?", "What about her Kate?"];
    const answers = [];
    for (const content of texts) answers.push(await w.post("/v1/store", { content }));
    for (const res of answers) expect(res.body.deduplicated).toBe(false);
    const listed = await w.getOk("/v1/memories?limit=10");
    expect(listed.memories.map((m: { content: string }) => m.content).sort()).toEqual(
      [...texts].sort(),
    );
  });
});
