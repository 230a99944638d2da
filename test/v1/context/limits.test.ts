/**
 * POST /v1/context: max_memories (and the clients' alias `limit`), the max_tokens budget,
 * validation; summarize never merges distinct facts (the rest of summarize is in
 * test/v1/context/summarize.test.ts).
 */
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../worker/embed/local";
import { cosine } from "../../../worker/embed/vector";
import { countTokens } from "../../../worker/lib/tokens";
import { RulesProvider } from "../../../worker/llm/rules";
import { expectError, type Json, newWallet, request, type Wallet } from "../../helpers";
import { bodyLines, context, HEADER } from "./fixtures";

describe("POST /v1/context: limits", () => {
  async function fiveMemories(w: Wallet) {
    for (const [i, word] of ["apple", "birch", "cedar", "dogwood", "elm"].entries()) {
      await w.storeNew(`Tree survey entry about the ${word} grove near the creek`, {
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
    await w.storeMany(
      Array.from({ length: 12 }, (_, i) => ({
        content: `Inventory shelf ${i}: ${["bolts", "nuts", "washers", "screws", "rivets", "nails", "hinges", "brackets", "clamps", "springs", "pulleys", "gears"][i]} in bin ${i * 7}`,
      })),
    );
    expect((await context(w)).memories_used).toBe(10);
    expect((await context(w, { query: "inventory shelf bin" })).memories_used).toBe(10);
    expect((await context(w, { max_memories: 100 })).memories_used).toBe(12);
  });

  it("max_tokens bounds the block: memories are added while they fit", async () => {
    const w = newWallet();
    const words = ["amber", "bronze", "cobalt", "denim", "ebony", "fuchsia"];
    for (const word of words) {
      // Same shape and length for every memory, so every line costs the same.
      await w.storeNew(`Paint sample ${word} was approved for the lobby walls and ceiling trim`);
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
    await w.storeNew(long, { importance: 0.9 });
    await w.storeNew("Short note: lunch is at noon", { importance: 0.5 });
    expect(countTokens(long)).toBeGreaterThan(100);
    const body = await context(w, { max_tokens: 100 });
    expect(body.memories_used).toBe(1);
    expect(bodyLines(body.context, 1)[0]).toContain("Short note: lunch is at noon");
    expect(body.tokens).toBeLessThanOrEqual(100);
  });

  it("rejects out-of-range and malformed parameters with 422", async () => {
    const w = newWallet();
    await w.storeNew("Something to put in a context block");
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
      // summarize merges similar memories (test/v1/context/summarize.test.ts); one memory stays as it is.
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
    const idA = await w.storeNew(a, { importance: 0.9 });
    const idB = await w.storeNew(b, { importance: 0.8 });
    const idC = await w.storeNew(c, { importance: 0.7 });

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
