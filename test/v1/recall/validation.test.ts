/** POST /v1/recall: limits and validation of the request, and queries that look like syntax. */
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../worker/lib/tokens";
import { expectError, ids, type Json, newWallet, request, sorted } from "../../helpers";
import { recall } from "./fixtures";

describe("POST /v1/recall: limits and validation", () => {
  it("limit defaults to 5 and accepts 1..100", async () => {
    const w = newWallet();
    await w.storeMany(
      ["red", "blue", "green", "yellow", "purple", "orange", "silver", "golden"].map((c) => ({
        content: `The ${c} umbrella hangs in the hallway closet`,
      })),
    );
    expect((await recall(w, { query: "umbrella hallway" })).memories).toHaveLength(5);
    expect((await recall(w, { query: "umbrella hallway", limit: 1 })).memories).toHaveLength(1);
    expect((await recall(w, { query: "umbrella hallway", limit: 7 })).memories).toHaveLength(7);
    expect((await recall(w, { query: "umbrella hallway", limit: 100 })).memories).toHaveLength(8);
  });

  it("rejects limit 0, 101, non-integers and strings with 422", async () => {
    const w = newWallet();
    for (const limit of [0, 101, -1, 2.5, "5"]) {
      expectError(
        await w.post("/v1/recall", { query: "anything", limit }),
        422,
        "VALIDATION_ERROR",
      );
    }
  });

  it("rejects a missing, empty, blank or non-string query with 422", async () => {
    const w = newWallet();
    expectError(await w.post("/v1/recall", {}), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: "" }), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: "   " }), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: 42 }), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/recall", { query: null }), 422, "VALIDATION_ERROR");
  });

  it("accepts a query of exactly 32,768 characters and rejects 32,769", async () => {
    const w = newWallet();
    const id = await w.storeNew("Zebra crossings near the school are repainted each spring");
    const unit = "zebra crossing school paint ";
    const exact = unit.repeat(Math.ceil(32_768 / unit.length)).slice(0, 32_768);
    expect(exact).toHaveLength(32_768);
    const ok = await recall(w, { query: exact });
    expect(ids(ok)).toEqual([id]);
    expect(ok.query_tokens).toBe(countTokens(exact));
    expectError(await w.post("/v1/recall", { query: `${exact}z` }), 422, "VALIDATION_ERROR");
  });

  it("rejects bad min_similarity, filters and scope values with 422", async () => {
    const w = newWallet();
    const bad: Array<Record<string, unknown>> = [
      { min_similarity: -0.1 },
      { min_similarity: 1.1 },
      { min_similarity: "0.5" },
      { include_relations: "yes" },
      { namespace: "n".repeat(256) },
      { session_id: 5 },
      { filters: { tags: "not-an-array" } },
      { filters: { after: "yesterday" } },
      { filters: { before: "2024-13-45" } },
      { filters: { memory_type: "dream" } },
      { filters: { pinned: "true" } },
      { filters: { metadata: "x" } },
      { since: "not a date" },
      { until: 12 },
    ];
    for (const extra of bad) {
      const res = await w.post("/v1/recall", { query: "anything", ...extra });
      expectError(res, 422, "VALIDATION_ERROR");
    }
  });

  it("rejects a malformed JSON body with 422 and a missing wallet with 401", async () => {
    const w = newWallet();
    expectError(await w.raw("POST", "/v1/recall", "{not json"), 422, "VALIDATION_ERROR");
    const array = await w.raw("POST", "/v1/recall", JSON.stringify([{ query: "x" }]));
    expectError(array, 422, "VALIDATION_ERROR");
    expectError(await request("POST", "/v1/recall", { body: { query: "x" } }), 401, "UNAUTHORIZED");
  });

  it("queries full of punctuation, operators and quotes are plain text, not syntax", async () => {
    const w = newWallet();
    const id = await w.storeNew("Notes from O'Reilly's book about regular expressions");
    const odd = [
      "O'Reilly's book",
      "'",
      "\\",
      "a\\b",
      "foo:bar",
      "foo:*",
      "a & b | !c",
      "<-> (x)",
      "???",
      "the and of",
      "🙂",
      "x.com/a?b=c",
      "e'abc'",
      "C:\\Users\\bob\\file.txt",
      "1e5 3.14 -7",
    ];
    for (const query of odd) {
      const res = await w.post("/v1/recall", { query });
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(ids(res.body)).toEqual([id]);
      const k = res.body.memories[0]._signals.keyword;
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThanOrEqual(1);
    }
    const apostrophes = await recall(w, { query: "O'Reilly's book" });
    expect(apostrophes.memories[0]._signals.keyword).toBe(1);
    const stopWords = await recall(w, { query: "the and of" });
    expect(stopWords.memories[0]._signals.keyword).toBe(0);
  });

  it("min_similarity drops memories scoring below it", async () => {
    const w = newWallet();
    const [a, b] = await w.storeMany([
      { content: "Quantum entanglement experiment results from the lab" },
      { content: "Quantum entanglement lab experiment: results were inconclusive" },
      { content: "Groceries: milk, eggs, bread and apples" },
      { content: "The dentist appointment is on Thursday" },
    ]);
    const all = await recall(w, {
      query: "quantum entanglement experiment results lab",
      limit: 10,
    });
    expect(all.memories).toHaveLength(4);
    // The two quantum memories score 0.72 and 0.49, the others below 1e-8.
    const strong = all.memories.filter((m: Json) => m.similarity >= 0.4);
    const weak = all.memories.filter((m: Json) => m.similarity < 0.3);
    expect(sorted(strong.map((m: Json) => m.id))).toEqual(sorted([a as string, b as string]));
    expect(weak).toHaveLength(2);
    const filtered = await recall(w, {
      query: "quantum entanglement experiment results lab",
      limit: 10,
      min_similarity: 0.4,
    });
    expect(sorted(ids(filtered))).toEqual(sorted([a as string, b as string]));
    for (const m of filtered.memories) expect(m.similarity).toBeGreaterThanOrEqual(0.4);
    const none = await recall(w, {
      query: "quantum entanglement experiment results lab",
      min_similarity: 1,
    });
    for (const m of none.memories) expect(m.similarity).toBeGreaterThanOrEqual(1);
  });
});
