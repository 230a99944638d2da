/**
 * Noticing a replacement with the production model (bge-small-en-v1.5, bge-worker.ts): a new
 * memory that gives a new value for the same thing as a current one, in other words, replaces
 * it; facts about another person, another thing or another time do not
 * (worker/memories/updates/detect.ts, docs/knowledge-updates.md). These sentences are the tests' own,
 * not the bench's set.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { bgeEndpoint, bgeWallet } from "../../bge-worker";
import { expectStatus, ids, type Json, newWallet, sorted, type Wallet } from "../../helpers";
import { as, grant } from "../sharing/fixtures";

beforeAll(() => {
  bgeEndpoint();
});

const store = async (w: Wallet, content: string, fields: Record<string, unknown> = {}) =>
  expectStatus(await w.post("/v1/store", { content, ...fields }), 201);

/** Each of `later` replaced nothing, and the memory `old` is still current. */
async function expectBeside(w: Wallet, old: string, ...later: Json[]) {
  for (const stored of later) expect(stored.memory.supersedes).toEqual([]);
  expect((await w.getMemory(old)).superseded_by).toBeNull();
}

/** The memories of the wallet that are current (the default list). */
const current = async (w: Wallet, query = "") => ids(await w.getOk(`/v1/memories${query}`));

describe("updates noticed at store", () => {
  it.each([
    ["home", "I live in a studio in Glasgow.", "We moved into a house in Edinburgh last week."],
    ["car", "I drive a blue Ford Focus.", "Sold the Ford; I have a Kia EV now."],
    ["manager", "My manager is Lorraine.", "I report to Gavin now."],
    ["phone", "My mobile number is 07700 900461.", "My mobile number is 07700 900999."],
    ["third person", "The user works at Hooli.", "The user joined Pied Piper in May."],
  ])(
    "%s: the new fact replaces the old, which stays as history",
    async (_kind, oldText, newText) => {
      const w = bgeWallet();
      const old = (await store(w, oldText)).id;
      await store(w, "The quarterly numbers look strong.");
      const now = await store(w, newText);
      expect(now.deduplicated).toBe(false);
      expect(now.memory.supersedes).toEqual([old]);
      const oldMemory = await w.getMemory(old);
      expect(oldMemory.superseded_by).toBe(now.id);
      expect(oldMemory.content).toBe(oldText);
      const [relation] = (await w.relationsOf(now.id)).filter(
        (r: Json) => r.relation_type === "supersedes",
      );
      expect(relation).toMatchObject({ source_id: now.id, target_id: old });
      expect(await current(w)).not.toContain(old);
    },
  );

  it("the relation's metadata says the rules found it, with their score", async () => {
    const w = bgeWallet();
    const old = (await store(w, "My therapist is Dr. Okafor.")).id;
    const now = (await store(w, "I started seeing a new counsellor, Dr. Lindqvist.")).id;
    const [relation] = await w.relationsOf(now);
    expect(relation.target_id).toBe(old);
    expect(relation.metadata).toMatchObject({
      detected_by: "rules",
      rule: "same-attribute:doctor",
    });
    expect(relation.metadata.score).toBeGreaterThanOrEqual(0.5);
    expect(relation.metadata.similarity).toBeGreaterThan(0.5);
  });

  it.each([
    ["another person", "My sister works at a bakery.", "My cousin works at a pharmacy."],
    ["another time", "In 2018 I lived in Madrid.", "I live in Valencia."],
    ["another thing", "My laptop is a ThinkPad.", "My tablet is an iPad."],
    ["another favourite", "My favourite band is Radiohead.", "My favourite film is Heat."],
  ])("%s: both stay current", async (_kind, first, second) => {
    const w = bgeWallet();
    const a = (await store(w, first)).id;
    const b = await store(w, second);
    expect(b.memory.supersedes).toEqual([]);
    expect(sorted(await current(w))).toEqual(sorted([a, b.id]));
  });

  it("detect_updates: false stores the new fact beside the old", async () => {
    const w = bgeWallet();
    const old = (await store(w, "I live in a studio in Glasgow.")).id;
    const now = await store(w, "We moved into a house in Edinburgh last week.", {
      detect_updates: false,
    });
    await expectBeside(w, old, now);
  });

  it("another agent's or session's memory is not replaced", async () => {
    const w = bgeWallet();
    const old = (await store(w, "I drive a blue Ford Focus.", { agent_id: "garage-bot" })).id;
    const now = await store(w, "Sold the Ford; I have a Kia EV now.", { agent_id: "travel-bot" });
    const inSession = await store(w, "Sold the Ford; I have a Kia EV now.", {
      agent_id: "garage-bot",
      session_id: "s-2",
    });
    await expectBeside(w, old, now, inSession);
  });

  it("another namespace's memory is not replaced", async () => {
    const w = bgeWallet();
    const old = (await store(w, "My manager is Lorraine.", { namespace: "work" })).id;
    const now = await store(w, "I report to Gavin now.", { namespace: "home" });
    await expectBeside(w, old, now);
  });

  it("a correction replaces what it corrects even without an attribute word", async () => {
    const w = bgeWallet();
    const old = (await store(w, "The offsite is on the 12th of June.")).id;
    const now = await store(w, "Actually the offsite is on the 14th of June.", {
      memory_type: "correction",
    });
    expect(now.memory.supersedes).toEqual([old]);
  });
});

describe("with the lexical embedder", () => {
  it("a new wording that shares no word with the old is found by its fact key", async () => {
    // The suite's own Worker embeds lexically: these two score near 0, and only their key
    // (both about where the user lives) makes the old one a candidate.
    const w = newWallet();
    const old = (await store(w, "I live in a studio in Glasgow.")).id;
    await store(w, "The quarterly numbers look strong.");
    const now = await store(w, "We moved into a house in Edinburgh last week.");
    expect(now.memory.supersedes).toEqual([old]);
    const [relation] = await w.relationsOf(now.id);
    expect(relation.metadata).toMatchObject({
      detected_by: "rules",
      rule: "same-attribute:residence",
    });
    expect(relation.metadata.similarity).toBeLessThan(0.5);
  });

  it("a key shared with another person's fact is no key: both stay", async () => {
    const w = newWallet();
    const a = (await store(w, "I live in a studio in Glasgow.")).id;
    const b = (await store(w, "My sister lives in Boston.")).id;
    expect(sorted(await current(w))).toEqual(sorted([a, b]));
  });
});

describe("order and chains", () => {
  it("a batch holding a history links it in order, oldest first replaced", async () => {
    const w = bgeWallet();
    const res = await w.post("/v1/store/batch", {
      memories: [
        { content: "I live in a studio in Glasgow." },
        { content: "We moved into a house in Edinburgh last week." },
      ],
    });
    const body = expectStatus(res, 201);
    const [older, newer] = body.ids;
    expect(body.memories[1].supersedes).toEqual([older]);
    expect((await w.getMemory(older)).superseded_by).toBe(newer);
  });

  it("an older fact stored later is stored as history: occurred_at decides", async () => {
    const w = bgeWallet();
    const now = (
      await store(w, "We moved into a house in Edinburgh last week.", {
        occurred_at: "2025-03-01T00:00:00Z",
      })
    ).id;
    const old = await store(w, "I live in a studio in Glasgow.", {
      occurred_at: "2023-05-01T00:00:00Z",
    });
    expect(old.memory.superseded_by).toBe(now);
    expect((await w.getMemory(now)).supersedes).toEqual([old.id]);
    expect(await current(w)).toEqual([now]);
    // As of 2024, the studio was home.
    const asOf = expectStatus(
      await w.post("/v1/recall", {
        query: "where does the user live",
        as_of: "2024-01-01T00:00:00Z",
      }),
      200,
    );
    expect(ids(asOf)).toEqual([old.id]);
  });

  it("six updates stored at once leave one chain with one current fact", async () => {
    const w = bgeWallet();
    const first = (await store(w, "My mobile number is 07700 900400.")).id;
    const answers = await Promise.all(
      [11, 22, 33, 44, 55, 66].map((n) =>
        w.post("/v1/store", { content: `My mobile number is 07700 9004${n}.` }),
      ),
    );
    for (const a of answers) expectStatus(a, 201);
    const all = (await w.getOk("/v1/memories?include_superseded=true&limit=100"))
      .memories as Json[];
    expect(all).toHaveLength(7);
    const heads = all.filter((m) => m.superseded_by === null);
    expect(heads).toHaveLength(1);
    // A chain: each memory replaces at most one, and each is replaced by at most one.
    for (const m of all) expect(m.supersedes.length).toBeLessThanOrEqual(1);
    const targets = all.flatMap((m) => m.supersedes as string[]);
    expect(new Set(targets).size).toBe(targets.length);
    expect(targets).toContain(first);
    // Walking back from the head reaches the first fact through all seven.
    const byId = new Map(all.map((m) => [m.id, m]));
    let at: Json = heads[0];
    let steps = 1;
    while (at.supersedes.length > 0) {
      at = byId.get(at.supersedes[0]);
      steps++;
    }
    expect(at.id).toBe(first);
    expect(steps).toBe(7);
    expect(await current(w)).toEqual([heads[0].id]);
  });
});

describe("through a grant", () => {
  it("a write grantee's store replaces the owner's fact; a read grantee sees the current view", async () => {
    const owner = bgeWallet();
    const writer = bgeWallet();
    const reader = bgeWallet();
    const old = (await store(owner, "I drive a blue Ford Focus.", { namespace: "family" })).id;
    await grant(owner, writer, "family", "write");
    await grant(owner, reader, "family", "read");
    const res = await writer.post(as("/v1/store", owner), {
      content: "Sold the Ford; I have a Kia EV now.",
      namespace: "family",
    });
    const now = expectStatus(res, 201);
    expect(now.memory.supersedes).toEqual([old]);
    const seen = await reader.getOk(as("/v1/memories", owner));
    expect(ids(seen)).toEqual([now.id]);
    const history = await reader.getOk(as("/v1/memories?include_superseded=true", owner));
    expect(history.memories.find((m: Json) => m.id === old).superseded_by).toBe(now.id);
  });

  it("a read grantee cannot replace, by naming or by storing", async () => {
    const owner = bgeWallet();
    const reader = bgeWallet();
    const old = (await store(owner, "My manager is Lorraine.", { namespace: "team" })).id;
    await grant(owner, reader, "team", "read");
    const named = await reader.post(as("/v1/store", owner), {
      content: "I report to Gavin now.",
      namespace: "team",
      supersedes: [old],
    });
    expect(named.status).toBe(403);
    // The reader's own store, naming the owner's memory without `owner`: not its memory.
    const own = await reader.post("/v1/store", {
      content: "I report to Gavin now.",
      supersedes: [old],
    });
    expect(own.status).toBe(404);
    expect((await owner.getMemory(old)).superseded_by).toBeNull();
  });
});
