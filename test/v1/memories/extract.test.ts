/**
 * POST /v1/memories/extract over HTTP with the Worker's default (rules) provider and the
 * local embedder: facts stored as memories, the counts and tokens, `{text}`, the limits,
 * deduplication against existing memories (immutable and pinned ones included), namespaces
 * and wallet isolation. Each wallet makes at most a few extract calls (10 per minute allowed).
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../worker/language-model";
import { countTokens } from "../../../worker/lib/tokens";
import { RulesProvider } from "../../../worker/llm/rules";
import { expectError, type Json, newWallet, request, type Wallet } from "../../helpers";

const rules = new RulesProvider();

const CONVERSATION: ChatMessage[] = [
  { role: "user", content: "Hi! I'm Priya and I work on the payments team at Globex." },
  { role: "assistant", content: "Hello Priya! How can I help you today?" },
  {
    role: "user",
    content:
      "We decided to move the ledger service to Go. I prefer short code reviews.\n" +
      "- The on-call rotation changes every Monday\n- My manager is Tom Baker",
  },
  { role: "user", content: "Can you remind me what we discussed? Thanks!" },
];

const RESPONSE_KEYS = [
  "facts_deduplicated",
  "facts_extracted",
  "facts_stored",
  "memory_ids",
  "tokens_used",
];

async function extract(w: Wallet, body: Record<string, unknown>, status = 201): Promise<Json> {
  const res = await w.post("/v1/memories/extract", body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

describe("POST /v1/memories/extract", () => {
  it("stores each extracted fact as a memory with the service's type and importance", async () => {
    const w = newWallet();
    const expected = await rules.extractFacts(CONVERSATION);
    expect(expected.facts.length).toBe(5);

    const body = await extract(w, {
      messages: CONVERSATION,
      namespace: "work",
      session_id: "s-1",
      agent_id: "scribe",
    });
    expect(Object.keys(body).sort()).toEqual(RESPONSE_KEYS);
    expect(body.facts_extracted).toBe(5);
    expect(body.facts_stored).toBe(5);
    expect(body.facts_deduplicated).toBe(0);
    expect(body.memory_ids).toHaveLength(5);
    expect(new Set(body.memory_ids).size).toBe(5);
    // Language-model tokens (the rules provider counts what it read) plus embedding tokens.
    const embedding = expected.facts.reduce((sum, f) => sum + countTokens(f.content), 0);
    expect(body.tokens_used).toBe(expected.tokens + embedding);

    for (const [i, id] of (body.memory_ids as string[]).entries()) {
      const m = await w.getMemory(id);
      const fact = expected.facts[i];
      expect(m).toMatchObject({
        content: fact?.content,
        memory_type: fact?.memory_type,
        importance: fact?.importance,
        namespace: "work",
        session_id: "s-1",
        agent_id: "scribe",
        pinned: false,
        immutable: false,
      });
    }
    expect((await w.getMemory(body.memory_ids[1])).content).toBe(
      "We decided to move the ledger service to Go",
    );
    expect((await w.getMemory(body.memory_ids[1])).memory_type).toBe("decision");
  });

  it("accepts {text} as one user message, and answers zero facts with zeros", async () => {
    const w = newWallet();
    const text = "I live in Lisbon. My cat is called Miso.";
    const body = await extract(w, { text });
    expect(body.facts_extracted).toBe(2);
    expect(body.facts_stored).toBe(2);
    const contents = await Promise.all(
      (body.memory_ids as string[]).map(async (id) => (await w.getMemory(id)).content),
    );
    expect(contents).toEqual(["The user lives in Lisbon", "The user's cat is called Miso"]);
    expect((await w.getMemory(body.memory_ids[0])).namespace).toBe("default");

    const none = await extract(w, {
      messages: [
        { role: "user", content: "Hello! Thanks so much." },
        { role: "assistant", content: "You are welcome, the user lives in Lisbon." },
      ],
    });
    expect(none).toEqual({
      memory_ids: [],
      facts_extracted: 0,
      facts_stored: 0,
      facts_deduplicated: 0,
      tokens_used:
        countTokens("Hello! Thanks so much.") +
        countTokens("You are welcome, the user lives in Lisbon."),
    });
  });

  it("deduplicates against existing memories: the same conversation twice gives the same ids", async () => {
    const w = newWallet();
    const first = await extract(w, { messages: CONVERSATION });
    const second = await extract(w, { messages: CONVERSATION });
    expect(second.facts_extracted).toBe(first.facts_extracted);
    expect(second.facts_stored).toBe(0);
    expect(second.facts_deduplicated).toBe(first.facts_extracted);
    expect(second.memory_ids).toEqual(first.memory_ids);
    // Embedding tokens are still spent on the second call.
    expect(second.tokens_used).toBe(first.tokens_used);
    const list = await w.get("/v1/memories?limit=100");
    expect(list.body.total).toBe(first.facts_stored);

    // A memory stored directly is found too, and reported among memory_ids in fact order.
    const stored = await w.store("The user's favourite database is PostgreSQL");
    const third = await extract(w, {
      text: "My favourite database is PostgreSQL. My laptop runs Fedora 40.",
    });
    expect(third.facts_deduplicated).toBe(1);
    expect(third.facts_stored).toBe(1);
    expect(third.memory_ids[0]).toBe(stored);
    expect(third.memory_ids[1]).not.toBe(stored);
  });

  it("deduplicates within a namespace only", async () => {
    const w = newWallet();
    const a = await extract(w, { text: "I speak Portuguese and English.", namespace: "a" });
    const b = await extract(w, { text: "I speak Portuguese and English.", namespace: "b" });
    expect(a.facts_stored).toBe(1);
    expect(b.facts_stored).toBe(1);
    expect(b.memory_ids[0]).not.toBe(a.memory_ids[0]);
  });

  it("never changes an immutable memory, and keeps a pinned one pinned", async () => {
    const w = newWallet();
    const immutable = await w.store("The user prefers the dark mode in every editor", {
      importance: 0.3,
      immutable: true,
      tags: ["ui"],
    });
    const pinned = await w.store("The deploy window is on the Tuesday at 10:00", {
      importance: 0.95,
      pinned: true,
      memory_type: "decision",
      tags: ["ops"],
    });
    const before = await w.getMemory(immutable);

    const body = await extract(w, {
      text: "The deploy window is on Tuesday at 10:00. I prefer dark mode in every editor.",
    });
    expect(body.facts_extracted).toBe(2);
    expect(body.facts_deduplicated).toBe(2);
    expect(body.memory_ids).toEqual([pinned, immutable]);

    // Immutable: nothing at all changed (content, importance, tags, updated_at).
    expect(await w.getMemory(immutable)).toEqual(before);
    // Pinned: still pinned, live, its importance, type and tags kept; the text follows the
    // store's merge rule (texts differing only in stop words: the newer wording wins).
    const p = await w.getMemory(pinned);
    expect(p).toMatchObject({
      pinned: true,
      importance: 0.95,
      memory_type: "decision",
      tags: ["ops"],
      content: "The deploy window is on Tuesday at 10:00",
    });
    const core = await w.get("/v1/memories/core");
    expect(core.body.memories.map((m: Json) => m.id)).toEqual([pinned]);
  });

  it("never deduplicates into another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    const fromA = await extract(a, { messages: CONVERSATION });
    const fromB = await extract(b, { messages: CONVERSATION });
    expect(fromB.facts_stored).toBe(fromA.facts_stored);
    expect(fromB.facts_deduplicated).toBe(0);
    for (const id of fromB.memory_ids) expect(fromA.memory_ids).not.toContain(id);
    // A's memories are untouched and invisible to B.
    expectError(await b.get(`/v1/memories/${fromA.memory_ids[0]}`), 404, "NOT_FOUND");
    expect((await a.get("/v1/memories?limit=100")).body.total).toBe(fromA.facts_stored);
  });

  it("enforces the limits: 1-100 messages, 32,768 characters each, messages or text", async () => {
    const w = newWallet();
    const msg = (content: string) => ({ role: "user", content });
    const bad: unknown[] = [
      {},
      { namespace: "x" },
      { messages: [] },
      { messages: Array.from({ length: 101 }, () => msg("I like tea.")) },
      { messages: [msg("x".repeat(32_769))] },
      { messages: [msg("I like tea.")], text: "I like coffee." },
      { messages: [{ content: "no role" }] },
      { messages: "I like tea." },
      { text: "" },
    ];
    for (const body of bad) {
      expectError(await w.post("/v1/memories/extract", body), 422, "VALIDATION_ERROR");
    }
    const both = expectError(
      await w.post("/v1/memories/extract", { messages: [msg("a")], text: "b" }),
      422,
      "VALIDATION_ERROR",
    );
    expect(both.message).toContain("not both");

    // The limits themselves are accepted (a second wallet: extract allows 10 calls a minute).
    const w2 = newWallet();
    const atLimit = await extract(w2, {
      messages: [
        ...Array.from({ length: 99 }, (_, i) => msg(`Filler ${i}?`)),
        msg(`My notes: ${"word ".repeat(6550)}`.slice(0, 32_768)),
      ],
    });
    expect(atLimit.facts_extracted).toBe(1);
    const [id] = atLimit.memory_ids;
    expect((await w2.getMemory(id)).content.length).toBeLessThanOrEqual(8192);

    expectError(
      await request("POST", "/v1/memories/extract", { body: { text: "I like tea." } }),
      401,
      "UNAUTHORIZED",
    );
  });
});
