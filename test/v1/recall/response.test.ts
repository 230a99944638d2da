/**
 * POST /v1/recall: the response shape, the score recomputed from the returned signals, and
 * ranking quality on a lexical fixture.
 */
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../worker/lib/tokens";
import { CURRENT_FACT } from "../../fixtures";
import { type Json, newWallet } from "../../helpers";
import { recall, recomputed } from "./fixtures";

const SIGNAL_KEYS = [
  "base_importance",
  "context_importance",
  "effective_importance",
  "keyword",
  "recency",
  "relation_count",
  "type_decay",
  "vector",
];

function expectSortedBySimilarity(memories: Json[]) {
  for (let i = 1; i < memories.length; i++) {
    expect(memories[i - 1].similarity).toBeGreaterThanOrEqual(memories[i].similarity);
  }
}

describe("POST /v1/recall: response", () => {
  it("returns the documented shape, with query_tokens and the eight signals", async () => {
    const w = newWallet();
    const id = await w.storeNew("The lighthouse keeper logs the weather every night at nine", {
      metadata: { source: "logbook", tags: ["coast", "weather"] },
      importance: 0.7,
      namespace: "shape",
      memory_type: "preference",
      session_id: "sess-1",
      agent_id: "agent-1",
      pinned: true,
    });
    const stored = await w.getMemory(id);
    const query = "when does the lighthouse keeper log the weather";
    const body = await recall(w, { query });
    expect(Object.keys(body).sort()).toEqual(["memories", "query_tokens"]);
    expect(body.query_tokens).toBeGreaterThan(0);
    expect(body.query_tokens).toBe(countTokens(query));
    expect(body.memories).toHaveLength(1);
    const m = body.memories[0];
    expect(m).toEqual({
      id,
      content: "The lighthouse keeper logs the weather every night at nine",
      similarity: expect.any(Number),
      metadata: { source: "logbook", tags: ["coast", "weather"] },
      tags: ["coast", "weather"],
      importance: 0.7,
      namespace: "shape",
      memory_type: "preference",
      session_id: "sess-1",
      agent_id: "agent-1",
      created_at: stored.created_at,
      access_count: 0,
      created_by: w.address.toLowerCase(),
      pinned: true,
      immutable: false,
      ...CURRENT_FACT,
      _signals: expect.any(Object),
    });
    expect(Object.keys(m._signals).sort()).toEqual(SIGNAL_KEYS);
    expect(m._signals.base_importance).toBeCloseTo(0.7, 6);
    expect(m._signals.effective_importance).toBeCloseTo(0.85, 6);
    expect(m._signals.relation_count).toBe(0);
    expect(m._signals.type_decay).toBe(1);
    expect(m._signals.keyword).toBeGreaterThan(0);
    expect(m._signals.vector).toBeGreaterThan(0);
    expect(m.similarity).toBeCloseTo(recomputed(m), 12);
  });

  it("null session_id / agent_id and empty metadata for a plain memory", async () => {
    const w = newWallet();
    const id = await w.storeNew("Plain memory about penguins");
    const body = await recall(w, { query: "penguins" });
    expect(body.memories[0]).toMatchObject({
      id,
      metadata: {},
      tags: [],
      importance: 0.5,
      namespace: "default",
      memory_type: "general",
      session_id: null,
      agent_id: null,
      pinned: false,
      immutable: false,
      access_count: 0,
    });
    expect(body.memories[0].relations).toBeUndefined();
  });

  it("similarity is the spec's formula over the returned signals, sorted descending", async () => {
    const w = newWallet();
    await w.storeMany([
      { content: "Solar panels on the barn roof produce power in summer", importance: 0.9 },
      {
        content: "The barn roof leaks when it rains heavily",
        importance: 0.2,
        memory_type: "observation",
      },
      {
        content: "Solar power inverter needs a firmware update",
        importance: 0.5,
        memory_type: "project",
      },
      {
        content: "Summer vacation plans include a trip to the coast",
        importance: 0.6,
        pinned: true,
      },
      { content: "Chickens roost in the barn at night", importance: 0, memory_type: "decision" },
      {
        content: "Invoice for the solar installation is paid",
        importance: 1,
        memory_type: "correction",
      },
    ]);
    // Give some memories access counts (and reset their decay timers) through a recall.
    const first = await recall(w, { query: "barn", limit: 2 });
    expect(first.memories).toHaveLength(2);
    for (const m of first.memories) await w.memoryAfterAccesses(m.id, 1);
    const body = await recall(w, { query: "solar power on the barn roof in summer", limit: 100 });
    expect(body.memories).toHaveLength(6);
    expectSortedBySimilarity(body.memories);
    const counts = body.memories.map((m: Json) => m.access_count).sort();
    expect(counts).toEqual([0, 0, 0, 0, 1, 1]);
    for (const m of body.memories) {
      expect(m.similarity).toBeCloseTo(recomputed(m), 12);
      const s = m._signals;
      expect(s.effective_importance).toBeCloseTo(0.5 + 0.5 * s.base_importance, 12);
      expect(s.context_importance).toBeCloseTo(
        s.effective_importance * (0.45 * s.vector + 0.55 * s.keyword) ** 5,
        12,
      );
      expect(s.base_importance).toBeCloseTo(m.importance, 6);
      for (const key of ["vector", "keyword", "recency", "type_decay"]) {
        expect(s[key]).toBeGreaterThanOrEqual(0);
        expect(s[key]).toBeLessThanOrEqual(1);
      }
    }
    expect(body.memories[0].content).toBe("Solar panels on the barn roof produce power in summer");
  });
});

describe("POST /v1/recall: ranking quality (lexical embedder)", () => {
  const FACTS = [
    "The production database is PostgreSQL 16 hosted on Neon in the eu-central region",
    "Alice prefers dark mode in every editor and terminal she uses",
    "The quarterly budget review meeting happens on the first Monday of each quarter",
    "Our cat Miso is allergic to chicken, so buy salmon cat food",
    "Deploys to staging run automatically after every merge to the main branch",
    "The office wifi password is rotated on the first day of each month",
    "Bob's flight to Tokyo departs from Heathrow terminal 5 on March 3rd",
    "The public API rate limit is 100 requests per minute per wallet",
    "Sourdough starter needs feeding with flour and water twice a day",
    "The team decided to use Rust for the new image processing service",
    "Marathon training plan: long run on Sundays, intervals on Wednesdays",
    "Garden tomatoes need watering every evening during July heat waves",
    "Invoices must be sent to the accounting department before the 25th",
    "The guitar's low E string broke and needs replacing before the concert",
    "Learning Spanish with a tutor every Thursday over a video call",
  ];
  const QUESTIONS: Array<[string, number]> = [
    ["Which region hosts the production database?", 0],
    ["Does Alice prefer dark mode in her editor?", 1],
    ["What food is the cat allergic to?", 3],
    ["How do staging deploys get triggered after a merge?", 4],
    ["When is the office wifi password rotated?", 5],
    ["Which terminal does Bob's flight to Tokyo leave from?", 6],
    ["What is the API rate limit per minute?", 7],
    ["How often does the sourdough starter need feeding?", 8],
    ["Which language did the team decide on for image processing?", 9],
    ["Where do invoices for the accounting department go?", 12],
  ];

  it("puts the memory that answers each question first", async () => {
    const w = newWallet();
    const factIds = await w.storeMany(FACTS.map((content) => ({ content })));
    for (const [question, answer] of QUESTIONS) {
      const body = await recall(w, { query: question, limit: 3 });
      expect(body.memories[0]?.content, question).toBe(FACTS[answer]);
      expect(body.memories[0]?.id).toBe(factIds[answer]);
      expectSortedBySimilarity(body.memories);
    }
  });
});
