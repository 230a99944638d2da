/**
 * POST /v1/context: the text and structured blocks, ordering with and without a query,
 * max_memories (and the clients' alias `limit`), the max_tokens budget, metadata, filters,
 * validation, empty wallets and wallet isolation; summarize never merges distinct facts (the
 * rest of summarize is in test/v1/ingest.test.ts).
 */
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../worker/embed/local";
import { cosine } from "../../worker/embed/vector";
import { countTokens } from "../../worker/lib/tokens";
import { RulesProvider } from "../../worker/llm/rules";
import {
  expectError,
  getMemory,
  type Json,
  memoryAfterAccesses,
  newWallet,
  request,
  sleep,
  storeNew,
  type Wallet,
} from "../helpers";

const HEADER = "Relevant memories:";

async function context(w: Wallet, body: Record<string, unknown> = {}): Promise<Json> {
  const res = await w.post("/v1/context", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["context", "memories", "memories_used", "tokens"]);
  const block = res.body.context;
  const text = typeof block === "string" ? block : JSON.stringify(block);
  expect(res.body.tokens).toBe(countTokens(text));
  // Client extra: the memories used, one per memory counted, in a short shape without nulls
  // (the public MCP server requires id and content and refuses nulls).
  expect(res.body.memories).toHaveLength(res.body.memories_used);
  for (const m of res.body.memories) {
    expect(Object.keys(m).sort()).toEqual(USED_MEMORY_KEYS);
    for (const value of Object.values(m)) expect(value).not.toBeNull();
    if (typeof block === "string") expect(block).toContain(m.content);
  }
  return res.body;
}

const USED_MEMORY_KEYS = [
  "content",
  "created_at",
  "id",
  "importance",
  "memory_type",
  "namespace",
  "pinned",
  "tags",
].sort();

/** The lines of a text block after the header, checked to be one per memory. */
function bodyLines(block: string, count: number): string[] {
  const lines = block.split("\n");
  expect(lines[0]).toBe(HEADER);
  expect(lines).toHaveLength(count + 1);
  for (const line of lines.slice(1)) expect(line.startsWith("- ")).toBe(true);
  return lines.slice(1);
}

/** Index of the memory (by content) each line of a text block shows. */
function lineOrder(lines: string[], contents: string[]): number[] {
  return lines.map((line) => {
    const matches = contents.flatMap((c, i) => (line.includes(c) ? [i] : []));
    expect(matches, line).toHaveLength(1);
    return matches[0] as number;
  });
}

describe("POST /v1/context: text format", () => {
  it("without a query: a header and one line per memory, pinned first, then importance", async () => {
    const w = newWallet();
    const contents = [
      "Low importance but pinned: the office door code is 4512",
      "Important: the release freeze starts on December 15",
      "Medium: the coffee machine is descaled on Fridays",
      "Important and newer: backups are verified every Monday",
      "Trivial: the plant in reception is a ficus",
    ];
    const pinned = await storeNew(w, contents[0] as string, { importance: 0.2, pinned: true });
    const releaseId = await storeNew(w, contents[1] as string, {
      importance: 0.9,
      memory_type: "decision",
      tags: ["release", "calendar"],
      namespace: "office",
    });
    const coffee = await storeNew(w, contents[2] as string, { importance: 0.5 });
    await sleep(5);
    const backups = await storeNew(w, contents[3] as string, {
      importance: 0.9,
      memory_type: "project",
    });
    const ficus = await storeNew(w, contents[4] as string, {
      importance: 0.1,
      memory_type: "observation",
    });

    const body = await context(w);
    expect(typeof body.context).toBe("string");
    expect(body.memories_used).toBe(5);
    expect(body.tokens).toBeGreaterThan(0);
    const lines = bodyLines(body.context, 5);
    // Pinned first; then importance descending; equal importance newest first.
    expect(lineOrder(lines, contents)).toEqual([0, 3, 1, 2, 4]);
    const release = lines[2] as string;
    expect(release).toContain("decision");
    expect(release).toContain("0.9");
    expect(release).toContain("release");
    expect(release).toContain("calendar");
    expect(lines[4]).toContain("observation");
    expect(lines[4]).toContain("0.1");
    expect(lines[4]).not.toContain("tags");

    // `memories` lists them in the block's order, with their stored values.
    expect(body.memories.map((m: Json) => m.id)).toEqual([
      pinned,
      backups,
      releaseId,
      coffee,
      ficus,
    ]);
    const stored = await getMemory(w, releaseId);
    expect(body.memories[2]).toEqual({
      id: releaseId,
      content: contents[1],
      importance: 0.9,
      memory_type: "decision",
      namespace: "office",
      tags: ["release", "calendar"],
      pinned: false,
      created_at: stored.created_at,
    });
    expect(body.memories[0]).toMatchObject({ id: pinned, pinned: true, namespace: "default" });
  });

  it("with a query: memories in recall order", async () => {
    const w = newWallet();
    const contents = [
      "Saffron risotto needs arborio rice, saffron threads and parmesan",
      "Saffron risotto with parmesan tastes better with homemade stock",
      "Risotto rice should be toasted before adding wine",
      "The parmesan wheel in the pantry is almost finished",
      "Pinned: the car needs an oil change in April",
    ];
    const ids = [
      await storeNew(w, contents[0] as string, { importance: 0.1 }),
      await storeNew(w, contents[1] as string, { importance: 0.2 }),
      await storeNew(w, contents[2] as string, { importance: 0.3 }),
      await storeNew(w, contents[3] as string, { importance: 0.4 }),
      await storeNew(w, contents[4] as string, { importance: 1, pinned: true }),
    ];
    const query = "saffron risotto arborio rice parmesan";
    const recalled = await w.post("/v1/recall", { query, limit: 10 });
    expect(recalled.status).toBe(200);
    const recallOrder = recalled.body.memories.map((m: Json) => ids.indexOf(m.id));
    expect(recallOrder).toEqual([0, 1, 2, 3, 4]);

    const body = await context(w, { query });
    expect(body.memories_used).toBe(5);
    expect(lineOrder(bodyLines(body.context, 5), contents)).toEqual(recallOrder);
    expect(body.memories.map((m: Json) => m.id)).toEqual(
      recalled.body.memories.map((m: Json) => m.id),
    );

    const withoutQuery = await context(w);
    expect(lineOrder(bodyLines(withoutQuery.context, 5), contents)).toEqual([4, 3, 2, 1, 0]);

    const blank = await context(w, { query: "   " });
    expect(lineOrder(bodyLines(blank.context, 5), contents)).toEqual([4, 3, 2, 1, 0]);
  });

  it("include_metadata adds each memory's metadata", async () => {
    const w = newWallet();
    await storeNew(w, "The staging cluster runs in Frankfurt", {
      metadata: { source: "wiki", owner: "ops" },
      tags: ["infra"],
    });
    const plain = await context(w);
    expect(plain.context).not.toContain("wiki");
    expect(plain.context).not.toContain("owner");
    const rich = await context(w, { include_metadata: true });
    expect(rich.context.startsWith(`${HEADER}\n`)).toBe(true);
    expect(rich.context).toContain("The staging cluster runs in Frankfurt");
    expect(rich.context).toContain('"source":"wiki"');
    expect(rich.context).toContain('"owner":"ops"');
    expect(rich.memories_used).toBe(1);
    expect(rich.tokens).toBeGreaterThan(plain.tokens);
  });
});

describe("POST /v1/context: structured format", () => {
  it("returns {memories: [{content, importance, memory_type, tags, source}]}", async () => {
    const w = newWallet();
    const a = await storeNew(w, "Quarterly OKRs are reviewed by the leadership team", {
      importance: 0.8,
      memory_type: "decision",
      tags: ["okr", "planning"],
    });
    await storeNew(w, "The support rota is posted in the team channel", {
      importance: 0.3,
      metadata: { source: "slack", channel: "#support" },
    });
    const body = await context(w, { format: "structured" });
    expect(body.memories_used).toBe(2);
    // The structured block too is answered with the memories used, ids included.
    expect(body.memories.map((m: Json) => m.id)).toEqual([a, expect.any(String)]);
    expect(body.context).toEqual({
      memories: [
        {
          content: "Quarterly OKRs are reviewed by the leadership team",
          importance: 0.8,
          memory_type: "decision",
          tags: ["okr", "planning"],
          source: `memory:${a}`,
        },
        {
          content: "The support rota is posted in the team channel",
          importance: 0.3,
          memory_type: "general",
          tags: [],
          source: "slack",
        },
      ],
    });
    expect(body.tokens).toBe(countTokens(JSON.stringify(body.context)));

    const withMeta = await context(w, { format: "structured", include_metadata: true });
    expect(withMeta.context.memories[0].metadata).toEqual({ tags: ["okr", "planning"] });
    expect(withMeta.context.memories[1].metadata).toEqual({
      source: "slack",
      channel: "#support",
    });
    expect(withMeta.context.memories[1].source).toBe("slack");
  });

  it("with a query the structured order is the recall order", async () => {
    const w = newWallet();
    await storeNew(w, "Zeppelin museum opens at nine", { importance: 0.1 });
    await storeNew(w, "The harbour ferry leaves every hour", { importance: 0.9 });
    const body = await context(w, { query: "zeppelin museum", format: "structured" });
    expect(body.context.memories.map((m: Json) => m.content)).toEqual([
      "Zeppelin museum opens at nine",
      "The harbour ferry leaves every hour",
    ]);
  });
});

describe("POST /v1/context: limits", () => {
  async function fiveMemories(w: Wallet) {
    for (const [i, word] of ["apple", "birch", "cedar", "dogwood", "elm"].entries()) {
      await storeNew(w, `Tree survey entry about the ${word} grove near the creek`, {
        importance: 0.9 - i * 0.1,
      });
    }
  }

  it("max_memories and its alias limit cap the number of memories", async () => {
    const w = newWallet();
    await fiveMemories(w);
    const two = await context(w, { max_memories: 2 });
    expect(two.memories_used).toBe(2);
    const lines = bodyLines(two.context, 2);
    expect(lines[0]).toContain("apple");
    expect(lines[1]).toContain("birch");
    const alias = await context(w, { limit: 3 });
    expect(alias.memories_used).toBe(3);
    expect(bodyLines(alias.context, 3)[2]).toContain("cedar");
    const both = await context(w, { max_memories: 1, limit: 4 });
    expect(both.memories_used).toBe(1);
    const queried = await context(w, { query: "tree survey grove", limit: 2 });
    expect(queried.memories_used).toBe(2);
    const structured = await context(w, { format: "structured", max_memories: 4 });
    expect(structured.context.memories).toHaveLength(4);
    const defaults = await context(w);
    expect(defaults.memories_used).toBe(5);
  });

  it("defaults to 10 memories", async () => {
    const w = newWallet();
    const res = await w.post("/v1/store/batch", {
      memories: Array.from({ length: 12 }, (_, i) => ({
        content: `Inventory shelf ${i}: ${["bolts", "nuts", "washers", "screws", "rivets", "nails", "hinges", "brackets", "clamps", "springs", "pulleys", "gears"][i]} in bin ${i * 7}`,
      })),
    });
    expect(res.status).toBe(201);
    expect(res.body.deduplicated_count).toBe(0);
    expect((await context(w)).memories_used).toBe(10);
    expect((await context(w, { query: "inventory shelf bin" })).memories_used).toBe(10);
    expect((await context(w, { max_memories: 100 })).memories_used).toBe(12);
  });

  it("max_tokens bounds the block: memories are added while they fit", async () => {
    const w = newWallet();
    const words = ["amber", "bronze", "cobalt", "denim", "ebony", "fuchsia"];
    for (const word of words) {
      // Same shape and length for every memory, so every line costs the same.
      await storeNew(w, `Paint sample ${word} was approved for the lobby walls and ceiling trim`);
    }
    const full = await context(w);
    expect(full.memories_used).toBe(6);
    const lines = bodyLines(full.context, 6);
    const costs = lines.map((l) => countTokens(l) + 1);
    expect(new Set(costs).size).toBe(1);
    const cost = costs[0] as number;
    const header = countTokens(HEADER);
    const fits = Math.floor((100 - header) / cost);
    expect(fits).toBeGreaterThan(0);
    expect(fits).toBeLessThan(6);

    const small = await context(w, { max_tokens: 100 });
    expect(small.memories_used).toBe(fits);
    expect(small.tokens).toBeLessThanOrEqual(100);
    bodyLines(small.context, fits);
    expect(header + (fits + 1) * cost).toBeGreaterThan(100);

    // Structured items carry `source: memory:<uuid>`, whose token cost varies with the id:
    // replay the greedy fit over the items of the unbounded block.
    const everything = await context(w, { format: "structured" });
    expect(everything.context.memories).toHaveLength(6);
    let used = countTokens('{"memories":[]}');
    const expected: Json[] = [];
    for (const item of everything.context.memories) {
      const itemCost = countTokens(JSON.stringify(item)) + 1;
      if (used + itemCost > 100) continue;
      expected.push(item);
      used += itemCost;
    }
    expect(expected.length).toBeLessThan(6);
    const structured = await context(w, { max_tokens: 100, format: "structured" });
    expect(structured.tokens).toBeLessThanOrEqual(100);
    expect(structured.context.memories).toEqual(expected);
    expect(structured.memories_used).toBe(expected.length);

    const roomy = await context(w, { max_tokens: 16_000 });
    expect(roomy.memories_used).toBe(6);
  });

  it("a memory that does not fit is skipped and a shorter later one still fits", async () => {
    const w = newWallet();
    const long = `Long design notes: ${Array.from({ length: 60 }, (_, i) => `section${i} covers topic${i}`).join(", ")}`;
    await storeNew(w, long, { importance: 0.9 });
    await storeNew(w, "Short note: lunch is at noon", { importance: 0.5 });
    expect(countTokens(long)).toBeGreaterThan(100);
    const body = await context(w, { max_tokens: 100 });
    expect(body.memories_used).toBe(1);
    expect(bodyLines(body.context, 1)[0]).toContain("Short note: lunch is at noon");
    expect(body.tokens).toBeLessThanOrEqual(100);
  });

  it("rejects out-of-range and malformed parameters with 422", async () => {
    const w = newWallet();
    await storeNew(w, "Something to put in a context block");
    const bad: Array<Record<string, unknown>> = [
      { max_tokens: 99 },
      { max_tokens: 16_001 },
      { max_tokens: 500.5 },
      { max_tokens: "500" },
      { max_memories: 0 },
      { max_memories: 101 },
      { max_memories: 2.5 },
      { limit: 0 },
      { limit: 101 },
      { format: "xml" },
      { format: "TEXT" },
      { include_metadata: "yes" },
      { summarize: "no" },
      { query: 12 },
      { query: "q".repeat(32_769) },
      { namespace: "n".repeat(256) },
      { session_id: 7 },
    ];
    for (const body of bad) {
      expectError(await w.post("/v1/context", body), 422, "VALIDATION_ERROR");
    }
    for (const ok of [
      { max_tokens: 100 },
      { max_tokens: 16_000 },
      { max_memories: 1 },
      { max_memories: 100 },
      { limit: 100 },
      { format: "text" },
      { format: "structured" },
      { summarize: false },
      // summarize merges similar memories (test/v1/ingest.test.ts); one memory stays as it is.
      { summarize: true },
    ]) {
      const res = await w.post("/v1/context", ok);
      expect(res.status, JSON.stringify(ok)).toBe(200);
      expect(res.body.memories_used).toBe(1);
    }
    expectError(await request("POST", "/v1/context", { body: {} }), 401, "UNAUTHORIZED");
  });
});

describe("POST /v1/context: summarize and distinct facts", () => {
  it("does not merge memories that differ by a date, and still merges near-duplicates", async () => {
    const w = newWallet();
    const frame = "The team retrospective is held in the";
    const rest = "meeting room on the third floor after lunch on";
    const a = `${frame} large ${rest} 7 May`;
    const b = `${frame} big ${rest} 7 May`; // the same fact, worded differently
    const c = `${frame} large ${rest} 9 May`; // another date: a distinct fact
    // The local embedder's similarities: by cosine alone, b and c both join the group a leads
    // (≥ summarize's 0.85), and neither is a duplicate of a on store (< 0.95).
    const { vectors } = await new LocalEmbedder().embed([a, b, c]);
    const sim = (i: number, j: number) => cosine(vectors[i] ?? [], vectors[j] ?? []);
    for (const s of [sim(0, 1), sim(0, 2)]) {
      expect(s).toBeGreaterThanOrEqual(0.85);
      expect(s).toBeLessThan(0.95);
    }
    const idA = await storeNew(w, a, { importance: 0.9 });
    const idB = await storeNew(w, b, { importance: 0.8 });
    const idC = await storeNew(w, c, { importance: 0.7 });

    const merged = (await new RulesProvider().synthesize([a, b])).content;
    const text = await context(w, { summarize: true });
    expect(text.memories_used).toBe(3);
    expect(bodyLines(text.context, 2)).toEqual([
      `- [general, importance 0.9] ${merged}`,
      `- [general, importance 0.7] ${c}`,
    ]);
    const structured = await context(w, { summarize: true, format: "structured" });
    expect(structured.context.memories.map((m: Json) => m.source)).toEqual([
      `memories:${idA},${idB}`,
      `memory:${idC}`,
    ]);
  });
});

describe("POST /v1/context: scope and isolation", () => {
  it("filters by namespace, session_id and agent_id, with or without a query", async () => {
    const w = newWallet();
    const contents = [
      "Namespace work: sprint demo on Friday",
      "Namespace home: water the ferns",
      "Session alpha: user asked about refunds",
      "Agent scout: crawled the pricing page",
    ];
    await storeNew(w, contents[0] as string, { namespace: "work" });
    await storeNew(w, contents[1] as string, { namespace: "home" });
    await storeNew(w, contents[2] as string, { session_id: "alpha" });
    await storeNew(w, contents[3] as string, { agent_id: "scout" });
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ namespace: "work" }, 0],
      [{ namespace: "home" }, 1],
      [{ session_id: "alpha" }, 2],
      [{ agent_id: "scout" }, 3],
    ];
    for (const [filter, expected] of cases) {
      for (const query of [undefined, "friday ferns refunds pricing"]) {
        const body = await context(w, { ...filter, ...(query ? { query } : {}) });
        expect(body.memories_used, JSON.stringify(filter)).toBe(1);
        expect(lineOrder(bodyLines(body.context, 1), contents)).toEqual([expected]);
      }
    }
    const none = await context(w, { namespace: "missing" });
    expect(none).toEqual({ context: "", memories_used: 0, tokens: 0, memories: [] });
    const all = await context(w);
    expect(all.memories_used).toBe(4);
  });

  it("an empty wallet gets an empty block", async () => {
    const w = newWallet();
    expect(await context(w)).toEqual({ context: "", memories_used: 0, tokens: 0, memories: [] });
    expect(await context(w, { query: "anything at all" })).toEqual({
      context: "",
      memories_used: 0,
      tokens: 0,
      memories: [],
    });
    const structured = await context(w, { format: "structured" });
    expect(structured.context).toEqual({ memories: [] });
    expect(structured.memories_used).toBe(0);
    expect(structured.tokens).toBe(countTokens('{"memories":[]}'));
  });

  it("never includes another wallet's or deleted memories", async () => {
    const a = newWallet();
    const b = newWallet();
    await storeNew(a, "Wallet A secret: the vault combination is 31-7-22");
    const gone = await storeNew(a, "Wallet A deleted: old wifi password hunter2");
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);
    await storeNew(b, "Wallet B note: lunch with Sam on Tuesday");

    for (const query of [undefined, "vault combination wifi password lunch"]) {
      const forB = await context(b, query ? { query } : {});
      expect(forB.memories_used).toBe(1);
      expect(forB.context).toContain("Wallet B note");
      expect(forB.context).not.toContain("Wallet A");
      expect(forB.memories.map((m: Json) => m.content)).toEqual([
        "Wallet B note: lunch with Sam on Tuesday",
      ]);
      const forA = await context(a, query ? { query } : {});
      expect(forA.memories_used).toBe(1);
      expect(forA.memories.map((m: Json) => m.id)).not.toContain(gone);
      expect(forA.context).toContain("vault combination");
      expect(forA.context).not.toContain("hunter2");
      expect(forA.context).not.toContain("Wallet B");
    }
    const fresh = newWallet();
    expect((await context(fresh, { query: "vault combination" })).memories_used).toBe(0);
  });

  it("counts an access for memories chosen by a query, not for a query-less block", async () => {
    const w = newWallet();
    const id = await storeNew(w, "The boiler service is booked for October");
    await context(w);
    await sleep(300);
    expect((await getMemory(w, id)).access_count).toBe(0);
    await context(w, { query: "boiler service" });
    expect((await memoryAfterAccesses(w, id, 1)).access_count).toBe(1);
  });
});
