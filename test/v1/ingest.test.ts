/**
 * POST /v1/ingest over HTTP with the rules provider and the local embedder: conversations
 * and long documents (chunked), the counts, validation, deduplication, wallet isolation,
 * auto_relate's `related_to` relations; and POST /v1/context with summarize: true, which
 * merges similar memories with the provider.
 */
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../worker/embed/local";
import { cosine } from "../../worker/embed/vector";
import { chunkText } from "../../worker/ingest/chunk";
import { countTokens } from "../../worker/lib/tokens";
import type { ChatMessage } from "../../worker/llm/provider";
import { RulesProvider } from "../../worker/llm/rules";
import { expectError, type Json, newWallet, request, type Wallet } from "../helpers";

const rules = new RulesProvider();
const embedder = new LocalEmbedder();

const RESPONSE_KEYS = [
  "facts_deduplicated",
  "facts_extracted",
  "facts_stored",
  "memories_created",
  "memory_ids",
  "relations_created",
  "tokens_used",
];

async function ingest(w: Wallet, body: Record<string, unknown>): Promise<Json> {
  const res = await w.post("/v1/ingest", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(Object.keys(res.body).sort()).toEqual(RESPONSE_KEYS);
  expect(res.body.memories_created).toBe(res.body.facts_stored);
  return res.body;
}

async function similarity(a: string, b: string): Promise<number> {
  const { vectors } = await embedder.embed([a, b]);
  return cosine(vectors[0] ?? [], vectors[1] ?? []);
}

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

  it("auto_relate links each new memory to at most 3 existing ones with similarity ≥ 0.75", async () => {
    const w = newWallet();
    const fact = "Our staging cluster runs Kubernetes 1.29 on three nodes";
    const existing = [
      "The staging cluster runs Kubernetes 1.29 on three nodes in Frankfurt",
      "Our production cluster runs Kubernetes 1.29 on three nodes",
      "Our staging cluster runs Kubernetes on three large nodes",
      "Our staging cluster runs Kubernetes 1.30 on five nodes",
    ];
    const unrelated = "The office coffee machine is descaled on Fridays";
    // The local embedder's similarities, checked so the test cannot pass by accident.
    const sims = await Promise.all(existing.map((e) => similarity(fact, e)));
    for (const s of sims) {
      expect(s).toBeGreaterThanOrEqual(0.75);
      expect(s).toBeLessThan(0.95); // the fact is not merged into one of them
    }
    expect([...sims].sort((a, b) => b - a)).toEqual(sims); // listed most similar first
    expect(await similarity(fact, unrelated)).toBeLessThan(0.75);

    const ids = [];
    for (const content of existing) ids.push(await w.store(content));
    const unrelatedId = await w.store(unrelated);
    const other = await w.store(existing[0] as string, { namespace: "elsewhere" });

    const body = await ingest(w, {
      text: `${fact}. My favourite editor is Helix.`,
      auto_relate: true,
    });
    expect(body.facts_stored).toBe(2);
    expect(body.relations_created).toBe(3);
    const [newId, helixId] = body.memory_ids as string[];

    const rels = await w.relationsOf(newId as string);
    expect(rels).toHaveLength(3);
    for (const r of rels) {
      expect(r).toMatchObject({
        source_id: newId,
        relation_type: "related_to",
        direction: "outgoing",
      });
    }
    expect(rels.map((r) => r.target_id).sort()).toEqual(ids.slice(0, 3).sort());
    expect(await w.relationsOf(helixId as string)).toEqual([]);
    expect(await w.relationsOf(unrelatedId)).toEqual([]);
    expect(await w.relationsOf(other)).toEqual([]);
    const incoming = await w.relationsOf(ids[0] as string);
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({ source_id: newId, direction: "incoming" });
  });

  it("auto_relate links a distinct fact ≥ 0.95 similar to an existing memory (no upper bound)", async () => {
    const w = newWallet();
    const frame =
      "Our staging cluster in Frankfurt runs Kubernetes with three worker nodes, a shared " +
      "Postgres database, a Redis cache, nightly backups and a monitoring stack, upgraded in";
    const existing = `${frame} 2023`;
    const fact = `${frame} 2024`;
    // Above the deduplication threshold, yet a distinct fact: the texts differ in a number.
    expect(await similarity(existing, fact)).toBeGreaterThanOrEqual(0.95);
    const existingId = await w.store(existing);

    const body = await ingest(w, { text: `${fact}.`, auto_relate: true });
    expect(body).toMatchObject({ facts_stored: 1, facts_deduplicated: 0, relations_created: 1 });
    const [newId] = body.memory_ids as string[];
    expect(newId).not.toBe(existingId);
    expect((await w.get(`/v1/memories/${newId}`)).body.content).toBe(fact);
    const rels = await w.relationsOf(newId as string);
    expect(rels).toHaveLength(1);
    expect(rels[0]).toMatchObject({
      source_id: newId,
      target_id: existingId,
      relation_type: "related_to",
      metadata: { auto_related: true },
    });
    expect(rels[0]?.metadata.similarity).toBeGreaterThanOrEqual(0.95);
  });

  it("auto_relate does not link memories created by the same ingest, nor across wallets", async () => {
    const a = newWallet();
    const b = newWallet();
    const first = "Our staging cluster runs Kubernetes 1.29 on three nodes";
    const second = "Our production cluster runs Kubernetes 1.29 on three nodes";
    expect(await similarity(first, second)).toBeGreaterThanOrEqual(0.75);
    await a.store(second);
    const body = await ingest(b, { text: `${first}. ${second}.`, auto_relate: true });
    expect(body.facts_stored).toBe(2);
    expect(body.relations_created).toBe(0);
    for (const id of body.memory_ids) expect(await b.relationsOf(id)).toEqual([]);
  });
});

describe("POST /v1/context with summarize", () => {
  it("merges similar memories into one entry with the provider", async () => {
    const w = newWallet();
    const a = "Our staging cluster runs Kubernetes 1.29 on three nodes";
    const b = "The staging cluster runs Kubernetes 1.29 on three nodes in the basement";
    const c = "The office coffee machine is descaled on Fridays";
    const ab = await similarity(a, b);
    expect(ab).toBeGreaterThanOrEqual(0.85);
    expect(ab).toBeLessThan(0.95);
    const idA = await w.store(a, { importance: 0.9, memory_type: "project", tags: ["k8s"] });
    const idB = await w.store(b, { importance: 0.8, tags: ["infra"] });
    const idC = await w.store(c, { importance: 0.5 });

    const plain = await w.post("/v1/context", {});
    expect(plain.body.memories_used).toBe(3);
    expect(plain.body.context.split("\n")).toHaveLength(4);

    const merged = (await rules.synthesize([a, b])).content;
    expect(merged).toBe(`${a}. ${b}.`);
    const text = await w.post("/v1/context", { summarize: true });
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    expect(text.body.memories_used).toBe(3);
    expect(text.body.context).toBe(
      [
        "Relevant memories:",
        `- [project, importance 0.9] ${merged} (tags: k8s, infra)`,
        `- [general, importance 0.5] ${c}`,
      ].join("\n"),
    );
    expect(text.body.tokens).toBe(countTokens(text.body.context));
    // `memories` lists the stored memories the block draws on, a merged entry's members each
    // with its own stored text.
    expect(text.body.memories.map((m: Json) => [m.id, m.content])).toEqual([
      [idA, a],
      [idB, b],
      [idC, c],
    ]);

    const structured = await w.post("/v1/context", { summarize: true, format: "structured" });
    expect(structured.body.context.memories).toEqual([
      {
        content: merged,
        importance: 0.9,
        memory_type: "project",
        tags: ["k8s", "infra"],
        source: `memories:${idA},${idB}`,
      },
      {
        content: c,
        importance: 0.5,
        memory_type: "general",
        tags: [],
        source: `memory:${idC}`,
      },
    ]);

    // With a query: the merged entry's members all count as used.
    const queried = await w.post("/v1/context", {
      query: "staging cluster nodes",
      summarize: true,
    });
    expect(queried.status).toBe(200);
    expect(queried.body.context.split("\n")).toHaveLength(3);
    expect(queried.body.context).toContain("in the basement.");
    expect(queried.body.memories_used).toBe(3);

    // The stored memories are unchanged.
    expect((await w.get(`/v1/memories/${idA}`)).body.content).toBe(a);
    expect((await w.get(`/v1/memories/${idB}`)).body.content).toBe(b);
  });
});
