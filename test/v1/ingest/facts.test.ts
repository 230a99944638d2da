/**
 * POST /v1/ingest over HTTP with the rules provider and the local embedder: the facts of a
 * conversation or of a long document (chunked) stored, the counts, validation and
 * deduplication.
 */
import { describe, expect, it } from "vitest";
import { chunkText } from "../../../worker/ingest/chunk";
import type { ChatMessage } from "../../../worker/language-model";
import { countTokens } from "../../../worker/lib/tokens";
import { RulesProvider } from "../../../worker/llm/rules";
import { expectError, type Json, newWallet, request } from "../../helpers";
import { ingest } from "./fixtures";

const rules = new RulesProvider();

describe("POST /v1/ingest", () => {
  it("ingests a conversation: facts stored, language-model tokens, no relations", async () => {
    const w = newWallet();
    const messages: ChatMessage[] = [
      { role: "user", content: "I run a bakery in Porto. We open at 7am on weekdays." },
      { role: "assistant", content: "Great! Anything else?" },
      { role: "user", content: "My best seller is the pastel de nata. Thanks!" },
    ];
    const expected = await rules.extractFacts(messages);
    const body = await ingest(w, { messages, namespace: "shop", agent_id: "helper" });
    expect(body.facts_extracted).toBe(3);
    expect(body.facts_stored).toBe(3);
    expect(body.facts_deduplicated).toBe(0);
    expect(body.relations_created).toBe(0);
    // Language-model tokens only (the spec's ingest counts no embedding tokens).
    expect(body.tokens_used).toBe(expected.tokens);
    const list = await w.get("/v1/memories?namespace=shop&limit=10");
    expect(list.body.memories.map((m: Json) => m.content).sort()).toEqual(
      expected.facts.map((f) => f.content).sort(),
    );
    expect(list.body.memories.every((m: Json) => m.agent_id === "helper")).toBe(true);
  });

  it("chunks a long document and extracts from every chunk", async () => {
    const w = newWallet();
    const cities = "Aveiro Braga Coimbra Faro Evora Leiria Lisbon Porto Sintra Tomar".split(" ");
    // 40 paragraphs of ~230 characters: about 9,400 characters, three 4,000-character chunks.
    const paragraphs = Array.from({ length: 40 }, (_, i) => {
      const city = cities[i % cities.length];
      return (
        `Warehouse ${i + 1} is located in ${city} and stores ${(i + 1) * 120} pallets of ` +
        `stock for region ${i + 1}. ` +
        "It is inspected by the regional quality team before every seasonal peak, " +
        "and its loading dock was renovated to handle larger trucks and longer trailers."
      );
    });
    const text = paragraphs.join("\n\n");
    expect(text.length).toBeGreaterThan(9000);
    expect(chunkText(text)).toHaveLength(3);
    const body = await ingest(w, { text });
    // One fact per paragraph: "It is inspected…" refers to another sentence and is dropped.
    const whole = await rules.extractFacts([{ role: "user", content: text }]);
    expect(whole.facts).toHaveLength(40);
    expect(body.facts_extracted).toBe(40);
    expect(body.facts_stored + body.facts_deduplicated).toBe(40);
    expect(body.memory_ids).toHaveLength(40);
    // Chunks are cut between paragraphs, so the provider reads every word exactly once.
    expect(body.tokens_used).toBe(countTokens(text));
    const last = await w.get(`/v1/memories/${body.memory_ids[39]}`);
    expect(last.body.content).toContain("Warehouse 40 is located in");
  });

  it("answers 422 VALIDATION_ERROR without messages or text, with both, or out of limits", async () => {
    const w = newWallet();
    const msg = (content: string) => ({ role: "user", content });
    const bad: unknown[] = [
      {},
      { auto_relate: true },
      { messages: [] },
      { messages: [msg("I like tea.")], text: "I like coffee." },
      { messages: Array.from({ length: 101 }, () => msg("I like tea.")) },
      { messages: [msg("y".repeat(32_769))] },
      { text: "   " },
      { text: 42 },
      { text: "I like tea.", auto_relate: "yes" },
      { text: "I like tea.", namespace: "" },
    ];
    for (const body of bad) {
      expectError(await w.post("/v1/ingest", body), 422, "VALIDATION_ERROR");
    }
    const neither = expectError(await w.post("/v1/ingest", {}), 422, "VALIDATION_ERROR");
    expect(neither.details.issues[0]).toEqual({
      path: "messages",
      message: "provide messages or text",
    });
    expectError(
      await request("POST", "/v1/ingest", { body: { text: "I like tea." } }),
      401,
      "UNAUTHORIZED",
    );
  });

  it("deduplicates: the same text twice stores nothing new and returns the same ids", async () => {
    const w = newWallet();
    const text = "I am learning Japanese. My tutor is Kenji. Lessons are on Wednesdays.";
    const first = await ingest(w, { text });
    const second = await ingest(w, { text, auto_relate: true });
    expect(first.facts_stored).toBe(3);
    expect(second).toMatchObject({
      facts_extracted: 3,
      facts_stored: 0,
      facts_deduplicated: 3,
      memories_created: 0,
      relations_created: 0,
    });
    expect(second.memory_ids).toEqual(first.memory_ids);
  });
});
