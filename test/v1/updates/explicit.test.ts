/**
 * Saying that a memory replaces another (`supersedes` on store, batch store and import):
 * the replaced memory stays as history (get, export, relations) and every read that answers
 * with current memories leaves it out unless `include_superseded` (docs/knowledge-updates.md).
 */
import { describe, expect, it } from "vitest";
import {
  expectError,
  expectStatus,
  ids,
  type Json,
  MISSING_ID,
  newWallet,
  sorted,
  uniqueText,
  type Wallet,
} from "../../helpers";

/** Stores `content` saying that it replaces the memories `supersedes` (201); returns the answer. */
async function storeReplacing(
  w: Wallet,
  content: string,
  supersedes: string[],
  fields: Record<string, unknown> = {},
): Promise<Json> {
  return expectStatus(await w.post("/v1/store", { content, supersedes, ...fields }), 201);
}

/** The old fact and the one that replaces it, stored in that order. */
async function replaced(w: Wallet, fields: Record<string, unknown> = {}) {
  const old = await w.storeNew(uniqueText("The office wifi password is tangerine"), fields);
  const content = uniqueText("Guests now log in with the code printed at reception");
  const body = await storeReplacing(w, content, [old], fields);
  return { old, now: body.id as string, stored: body };
}

const recallIds = async (w: Wallet, body: Record<string, unknown>) =>
  ids(expectStatus(await w.post("/v1/recall", { limit: 10, ...body }), 200));

describe("supersedes on store", () => {
  it("links the new memory to the old one, and both answers say so", async () => {
    const w = newWallet();
    const { old, now, stored } = await replaced(w);
    expect(stored.memory.supersedes).toEqual([old]);
    expect(stored.memory.superseded_by).toBeNull();
    const oldMemory = await w.getMemory(old);
    expect(oldMemory.superseded_by).toBe(now);
    expect(oldMemory.supersedes).toEqual([]);
    expect((await w.getMemory(now)).supersedes).toEqual([old]);
    const relations = await w.relationsOf(now);
    expect(relations).toHaveLength(1);
    expect(relations[0]).toMatchObject({
      source_id: now,
      target_id: old,
      relation_type: "supersedes",
    });
  });

  it("leaves the replaced memory out of recall, search, list, count, context and suggested", async () => {
    const w = newWallet();
    const { old, now } = await replaced(w);
    // First: a recall counts an access, and a memory accessed is no longer "fresh".
    const suggested = await w.getOk("/v1/suggested");
    expect(suggested.suggested.map((m: Json) => m.id)).toEqual([now]);
    expect(await recallIds(w, { query: "wifi password code reception" })).toEqual([now]);
    const search = expectStatus(await w.post("/v1/search", { query: "wifi password" }), 200);
    expect(ids(search)).not.toContain(old);
    const list = await w.getOk("/v1/memories");
    expect(ids(list)).toEqual([now]);
    expect(list.total).toBe(1);
    expect(await w.memoryCount()).toBe(1);
    const context = expectStatus(await w.post("/v1/context", { query: "wifi password" }), 200);
    expect(JSON.stringify(context)).not.toContain("tangerine");
  });

  it("include_superseded answers replaced memories too, marked", async () => {
    const w = newWallet();
    const { old, now } = await replaced(w);
    const recalled = expectStatus(
      await w.post("/v1/recall", { query: "wifi password", include_superseded: true }),
      200,
    );
    expect(sorted(ids(recalled))).toEqual(sorted([old, now]));
    const oldAnswer = recalled.memories.find((m: Json) => m.id === old);
    expect(oldAnswer.superseded_by).toBe(now);
    const list = await w.getOk("/v1/memories?include_superseded=true");
    expect(sorted(ids(list))).toEqual(sorted([old, now]));
    expect(list.total).toBe(2);
    expect(await w.memoryCount("?include_superseded=true")).toBe(2);
    const search = expectStatus(
      await w.post("/v1/search", { query: "wifi password", include_superseded: true }),
      200,
    );
    expect(ids(search)).toContain(old);
  });

  it("deleting the relation makes the old memory current again", async () => {
    const w = newWallet();
    const { old, now } = await replaced(w);
    const [relation] = await w.relationsOf(old);
    expectStatus(await w.del(`/v1/memories/${old}/relations/${relation.id}`), 200);
    expect((await w.getMemory(old)).superseded_by).toBeNull();
    expect(sorted(ids(await w.getOk("/v1/memories")))).toEqual(sorted([old, now]));
  });

  it("deleting the new memory makes the old one current again", async () => {
    const w = newWallet();
    const { old, now } = await replaced(w);
    expectStatus(await w.del(`/v1/memories/${now}`), 200);
    expect((await w.getMemory(old)).superseded_by).toBeNull();
    expect(ids(await w.getOk("/v1/memories"))).toEqual([old]);
  });

  it("a relation made through the relations endpoint replaces too", async () => {
    const w = newWallet();
    const [a, b] = await w.storeAll(
      [uniqueText("The spare key is under the mat"), uniqueText("The router sits in the hallway")],
      { detect_updates: false },
    );
    await w.relate(b as string, a as string, "supersedes");
    expect(ids(await w.getOk("/v1/memories"))).toEqual([b]);
  });

  it("A → B → C: only C is current, each link names the next", async () => {
    const w = newWallet();
    const a = await w.storeNew(uniqueText("The team meets in room 101"));
    const b = (await storeReplacing(w, uniqueText("Standups happen upstairs"), [a])).id;
    const c = (await storeReplacing(w, uniqueText("We gather on video calls"), [b])).id;
    expect(ids(await w.getOk("/v1/memories"))).toEqual([c]);
    expect((await w.getMemory(a)).superseded_by).toBe(b);
    expect((await w.getMemory(b)).superseded_by).toBe(c);
    expect((await w.getMemory(c)).superseded_by).toBeNull();
    expect(await recallIds(w, { query: "where does the team meet" })).toEqual([c]);
  });

  it("naming a memory already replaced replaces its current version: one chain", async () => {
    const w = newWallet();
    const a = await w.storeNew(uniqueText("Lunch is at noon"));
    const b = (await storeReplacing(w, uniqueText("Meals moved an hour later"), [a])).id;
    const c = await storeReplacing(w, uniqueText("Food arrives at two"), [a]);
    expect(c.memory.supersedes).toEqual([b]);
    expect((await w.getMemory(b)).superseded_by).toBe(c.id);
    expect(ids(await w.getOk("/v1/memories"))).toEqual([c.id]);
  });

  it("a batch store takes supersedes per item", async () => {
    const w = newWallet();
    const old = await w.storeNew(uniqueText("Rent is due on the 1st"));
    const res = await w.post("/v1/store/batch", {
      memories: [
        { content: uniqueText("Payments to the landlord go out on the 5th"), supersedes: [old] },
        { content: uniqueText("The gym closes at ten") },
      ],
    });
    const body = expectStatus(res, 201);
    expect(body.memories[0].supersedes).toEqual([old]);
    expect(body.memories[1].supersedes).toEqual([]);
    expect((await w.getMemory(old)).superseded_by).toBe(body.ids[0]);
  });
});

describe("supersedes refused", () => {
  it("an unknown id is a 404 and stores nothing", async () => {
    const w = newWallet();
    const res = await w.post("/v1/store", {
      content: uniqueText("x fact"),
      supersedes: [MISSING_ID],
    });
    expectError(res, 404, "NOT_FOUND");
    expect(await w.memoryCount("?include_superseded=true")).toBe(0);
  });

  it("another wallet's memory is a 404, and it stays current", async () => {
    const owner = newWallet();
    const other = newWallet();
    const theirs = await owner.storeNew(uniqueText("The owner's fact"));
    const res = await other.post("/v1/store", {
      content: uniqueText("A stranger's claim"),
      supersedes: [theirs],
    });
    expectError(res, 404, "NOT_FOUND");
    expect((await owner.getMemory(theirs)).superseded_by).toBeNull();
    expect(await other.memoryCount()).toBe(0);
  });

  it("a batch with one bad id stores none of its items", async () => {
    const w = newWallet();
    const res = await w.post("/v1/store/batch", {
      memories: [
        { content: uniqueText("first of two") },
        { content: uniqueText("second of two"), supersedes: [MISSING_ID] },
      ],
    });
    expectError(res, 404, "NOT_FOUND");
    expect(await w.memoryCount()).toBe(0);
  });

  it("an import naming an id it neither holds nor exports is a 404 and imports none", async () => {
    const w = newWallet();
    const res = await w.post("/v1/import", {
      memories: [
        { content: uniqueText("imported first") },
        { content: uniqueText("imported second"), supersedes: [MISSING_ID] },
      ],
    });
    expectError(res, 404, "NOT_FOUND");
    expect(await w.memoryCount("?include_superseded=true")).toBe(0);
  });

  it.each([
    ["not a uuid", { supersedes: ["nope"] }, "supersedes.0"],
    ["not an array", { supersedes: "x" }, "supersedes"],
    [
      "more than 10",
      { supersedes: Array.from({ length: 11 }, () => crypto.randomUUID()) },
      "supersedes",
    ],
    ["occurred_at in the future", { occurred_at: "2999-01-01T00:00:00Z" }, "occurred_at"],
    ["occurred_at not a date", { occurred_at: "yesterday" }, "occurred_at"],
    ["detect_updates not a boolean", { detect_updates: "no" }, "detect_updates"],
  ])("%s is a 422", async (_name, fields, path) => {
    const w = newWallet();
    const res = await w.post("/v1/store", { content: uniqueText("a fact"), ...fields });
    const body = expectError(res, 422, "VALIDATION_ERROR");
    expect(JSON.stringify(body)).toContain(path);
    expect(await w.memoryCount("?include_superseded=true")).toBe(0);
  });
});

describe("occurred_at and as_of", () => {
  it("recall as_of answers what was current then", async () => {
    const w = newWallet();
    const old = await w.storeNew(uniqueText("Home is a flat in Leeds"), {
      occurred_at: "2023-01-10T00:00:00Z",
    });
    const now = (
      await storeReplacing(w, uniqueText("The family bought a farmhouse near York"), [old], {
        occurred_at: "2024-06-01T00:00:00Z",
      })
    ).id;
    expect(await recallIds(w, { query: "where is home" })).toEqual([now]);
    expect(await recallIds(w, { query: "where is home", as_of: "2023-08-01T00:00:00Z" })).toEqual([
      old,
    ]);
    // Before either had occurred: nothing.
    expect(await recallIds(w, { query: "where is home", as_of: "2022-01-01T00:00:00Z" })).toEqual(
      [],
    );
    expect(ids(await w.getOk("/v1/memories?as_of=2023-08-01T00:00:00Z"))).toEqual([old]);
  });

  it("answers carry occurred_at, and recency counts from it", async () => {
    const w = newWallet();
    const long = await w.storeNew(uniqueText("Kiwi note"), { occurred_at: "2020-01-01T00:00:00Z" });
    const fresh = await w.storeNew(uniqueText("Kiwi memo"));
    expect((await w.getMemory(long)).occurred_at).toBe("2020-01-01T00:00:00.000Z");
    const recalled = expectStatus(await w.post("/v1/recall", { query: "kiwi" }), 200).memories;
    const signal = (id: string) => recalled.find((m: Json) => m.id === id)._signals.recency;
    expect(signal(long)).toBeLessThan(0.001);
    expect(signal(fresh)).toBeGreaterThan(0.99);
  });
});

describe("export and import", () => {
  it("round-trip the relations and occurred_at into another wallet", async () => {
    const w = newWallet();
    const { old, now } = await replaced(w, { occurred_at: "2024-02-02T00:00:00Z" });
    const exported = await w.getOk("/v1/export?format=json");
    expect(exported.memories.map((m: Json) => m.id).sort()).toEqual(sorted([old, now]));
    const other = newWallet();
    const res = await other.post("/v1/import", { memories: exported.memories });
    const body = expectStatus(res, 201);
    expect(body.imported).toBe(2);
    const list = await other.getOk("/v1/memories?include_superseded=true");
    const byContent = new Map(list.memories.map((m: Json) => [m.content, m]));
    const oldCopy = byContent.get((await w.getMemory(old)).content) as Json;
    const nowCopy = byContent.get((await w.getMemory(now)).content) as Json;
    expect(nowCopy.supersedes).toEqual([oldCopy.id]);
    expect(oldCopy.superseded_by).toBe(nowCopy.id);
    expect(oldCopy.occurred_at).toBe("2024-02-02T00:00:00.000Z");
    expect(ids(await other.getOk("/v1/memories"))).toEqual([nowCopy.id]);
  });
});
