/**
 * Recall by meaning with the production model (bge-small-en-v1.5 in the local process, see
 * bge-worker.ts): what the lexical embedder cannot do, and what the rest of the service does
 * with real similarities (deduplication, context, suggestions, consolidation).
 */
import { SELF } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { BGE_MODEL, bgeEndpoint, bgeFetch, bgeWallet } from "./bge-worker";
import { type Json, newWallet, request, signAuth, type Wallet, type WorkerFetch } from "./helpers";

/** An agent's memories about its user: the haystack of the recall tests. */
const MEMORIES = [
  "The user prefers dark mode",
  "The user is allergic to peanuts",
  "Our team uses PostgreSQL for the billing service",
  "The quarterly report is due next Tuesday",
  "My sister plays the violin in an orchestra",
  "The kitchen tap is leaking again",
  "I grew up in a small town near Munich",
  "Dinner reservation at 8 pm on Friday",
  "The car needs new tires",
  "I moved to Berlin last year",
];

async function seed(w: Pick<Wallet, "post">, texts = MEMORIES): Promise<Map<string, string>> {
  const res = await w.post("/v1/store/batch", { memories: texts.map((content) => ({ content })) });
  if (res.status !== 201)
    throw new Error(`batch store failed: ${res.status} ${JSON.stringify(res.body)}`);
  expect(res.body.deduplicated_count).toBe(0);
  return new Map(texts.map((t, i) => [t, res.body.ids[i] as string]));
}

const contents = (res: { body: Json }) =>
  (res.body.memories as Array<{ content: string }>).map((m) => m.content);

beforeAll(() => {
  bgeEndpoint();
});

describe("recall by meaning (bge-small-en-v1.5)", () => {
  it("finds the car's tires for 'automobile maintenance', which shares no word with it", async () => {
    const w = bgeWallet();
    await seed(w);
    const res = await w.post("/v1/recall", { query: "automobile maintenance", limit: 3 });
    expect(res.status).toBe(200);
    expect(contents(res)[0]).toBe("The car needs new tires");
    const top = res.body.memories[0];
    expect(top._signals.keyword).toBe(0);
    expect(top._signals.vector).toBeGreaterThan(0.65);

    // The lexical embedder sees nothing in common: the same memories and query through the
    // suite's Worker give the car a vector similarity near 0.
    const lexical = newWallet();
    await seed(lexical);
    const all = await lexical.post("/v1/recall", { query: "automobile maintenance", limit: 10 });
    const car = (all.body.memories as Json[]).find((m) => m.content === "The car needs new tires");
    expect(car._signals.vector).toBeLessThan(0.2);
  });

  it("finds the move to Berlin for 'where does the user live now?'", async () => {
    const w = bgeWallet();
    await seed(w);
    const res = await w.post("/v1/recall", { query: "where does the user live now?", limit: 3 });
    expect(contents(res)[0]).toBe("I moved to Berlin last year");
  });

  it("answers other paraphrased questions with the memory that answers them", async () => {
    const w = bgeWallet();
    await seed(w);
    const cases: Array<[string, string]> = [
      ["which database do we use?", "Our team uses PostgreSQL for the billing service"],
      ["food allergies", "The user is allergic to peanuts"],
      ["what instrument does my sibling play?", "My sister plays the violin in an orchestra"],
      ["plumbing problem at home", "The kitchen tap is leaking again"],
    ];
    for (const [query, expected] of cases) {
      const res = await w.post("/v1/recall", { query, limit: 1 });
      expect(contents(res), query).toEqual([expected]);
    }
  });
});

describe("deduplication with real similarities", () => {
  it("merges two wordings of one preference and keeps both texts", async () => {
    const w = bgeWallet();
    const first = await w.post("/v1/store", { content: "The user prefers dark mode" });
    const second = await w.post("/v1/store", { content: "User likes dark mode" });
    expect(second.body).toMatchObject({ id: first.body.id, deduplicated: true });
    const got = await w.get(`/v1/memories/${first.body.id}`);
    expect(got.body.content).toBe("The user prefers dark mode. User likes dark mode");
    expect(got.body.embedding_model).toBe(BGE_MODEL);
    expect((await w.get("/v1/memories/count")).body.count).toBe(1);

    const again = await w.post("/v1/store", { content: "The user prefers dark mode" });
    expect(again.body).toMatchObject({ id: first.body.id, deduplicated: true });
    expect((await w.get(`/v1/memories/${first.body.id}`)).body.content).toBe(got.body.content);
  });

  it("keeps distinct facts that score above 0.95 apart", async () => {
    const w = bgeWallet();
    const texts = [
      "Caroline went to the LGBTQ support group on 7 May 2023",
      "Caroline went to the LGBTQ support group on 20 July 2023",
      "I have two cats",
      "I have three cats",
    ];
    for (const content of texts) {
      const res = await w.post("/v1/store", { content });
      expect(res.body.deduplicated, content).toBe(false);
    }
    const list = await w.get("/v1/memories?limit=10");
    expect((list.body.memories as Json[]).map((m) => m.content).sort()).toEqual([...texts].sort());
  });

  it("never compares vectors of another model: the lexical copy of a text is not a duplicate", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const lexical = walletFor(account, (url, init) => SELF.fetch(url, init));
    const bge = walletFor(account, bgeFetch);
    const text = "The deploy pipeline runs every Friday at noon";
    const old = await lexical.post("/v1/store", { content: text });
    const now = await bge.post("/v1/store", { content: text });
    expect(now.body.deduplicated).toBe(false);
    expect(now.body.id).not.toBe(old.body.id);

    const recalled = await bge.post("/v1/recall", { query: text, limit: 5 });
    const byId = new Map((recalled.body.memories as Json[]).map((m) => [m.id, m]));
    expect(byId.get(now.body.id)._signals.vector).toBeGreaterThan(0.99);
    expect(byId.get(old.body.id)?._signals.vector ?? 0).toBe(0);

    const clusters = await bge.post("/v1/memories/consolidate", {
      dry_run: true,
      min_similarity: 0.5,
    });
    expect(clusters.body.clusters_found).toBe(0);
  });
});

describe("context, suggestions and consolidation with real similarities", () => {
  it("puts the memory that answers the query first in the context block", async () => {
    const w = bgeWallet();
    await seed(w);
    const res = await w.post("/v1/context", {
      query: "What does my vehicle need?",
      max_memories: 3,
      format: "text",
    });
    expect(res.status).toBe(200);
    const lines = (res.body.context as string).split("\n");
    expect(lines[0]).toBe("Relevant memories:");
    expect(lines[1]).toContain("The car needs new tires");
  });

  it("reports the memory recalled by meaning as hot and the others as fresh", async () => {
    const w = bgeWallet();
    const ids = await seed(w);
    for (let i = 0; i < 5; i++) {
      const res = await w.post("/v1/recall", { query: "automobile maintenance", limit: 1 });
      expect(contents(res)).toEqual(["The car needs new tires"]);
    }
    const hot = await w.get("/v1/suggested?category=hot");
    expect((hot.body.suggested as Json[]).map((m) => m.id)).toEqual([
      ids.get("The car needs new tires"),
    ]);
    const fresh = await w.get("/v1/suggested?category=fresh&limit=20");
    expect(fresh.body.total).toBe(MEMORIES.length - 1);
  });

  it("clusters paraphrases at the default 0.85 and never distinct facts", async () => {
    const w = bgeWallet();
    const texts = [
      "Our team uses PostgreSQL for the billing service",
      "The billing service runs on a PostgreSQL database",
      "I have two cats",
      "I have three cats",
      "The kitchen tap is leaking again",
    ];
    const ids = await seed(w, texts);
    const res = await w.post("/v1/memories/consolidate", { dry_run: true });
    expect(res.status).toBe(200);
    const clusters = (res.body.clusters as Array<{ memory_ids: string[]; similarity: number }>).map(
      (c) => ({ ...c, memory_ids: [...c.memory_ids].sort() }),
    );
    expect(clusters).toHaveLength(1);
    expect(clusters[0]?.memory_ids).toEqual(
      [ids.get(texts[0] ?? ""), ids.get(texts[1] ?? "")].sort(),
    );
    expect(clusters[0]?.similarity).toBeGreaterThan(0.85);
    expect(clusters[0]?.similarity).toBeLessThan(0.95);
  });
});

function walletFor(
  account: ReturnType<typeof privateKeyToAccount>,
  fetch: WorkerFetch,
): Pick<Wallet, "post"> {
  return {
    post: async (path: string, body?: unknown) =>
      request("POST", path, { body, headers: { "x-wallet-auth": await signAuth(account) }, fetch }),
  };
}
