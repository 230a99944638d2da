/**
 * POST /v1/search: full-text keyword search (Postgres websearch_to_tsquery): what matches,
 * in which order, and how many.
 */
import { describe, expect, it } from "vitest";
import { CURRENT_FACT } from "../../fixtures";
import { ids, type Json, newWallet, sleep } from "../../helpers";
import { search, searchGet } from "./fixtures";

describe("POST /v1/search", () => {
  it("finds memories by keyword and returns the documented fields", async () => {
    const w = newWallet();
    // Each of these comes back as it was stored.
    const content = "Remember to water the orchids every Tuesday";
    const fields = {
      importance: 0.7,
      memory_type: "preference",
      namespace: "plants",
      tags: ["home", "weekly"],
    };
    const id = await w.storeNew(content, fields);
    await w.storeNew("The quarterly budget review is scheduled for March", {
      namespace: "plants",
    });
    const body = await search(w, { query: "orchids" });
    const stored = await w.get(`/v1/memories/${id}`);
    expect(body).toEqual({
      memories: [
        {
          id,
          content,
          ...fields,
          created_at: stored.body.created_at,
          // Client extras (the Python SDK parses search items as full memories).
          user_id: stored.body.user_id,
          embedding_model: stored.body.embedding_model,
          updated_at: stored.body.updated_at,
          accessed_at: stored.body.accessed_at,
          access_count: 0,
          created_by: w.address.toLowerCase(),
          metadata: { tags: ["home", "weekly"] },
          pinned: false,
          immutable: false,
          ...CURRENT_FACT,
        },
      ],
      total: 1,
      query: "orchids",
    });
    expect(typeof stored.body.user_id).toBe("string");
    expect(typeof stored.body.embedding_model).toBe("string");
  });

  it("items carry metadata, pinned, immutable, and session, agent and expiry when set", async () => {
    // The public Python SDK parses search items as full memories and reads defaults for what
    // is missing ({} metadata, unpinned, mutable, no session): it reported every match that
    // way. Session, agent and expiry are left out when null: the public MCP server's output
    // schemas refuse null there, and an absent one reads as null in both SDKs.
    const w = newWallet();
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const full = await w.storeNew("The greenhouse heater switches on below five degrees", {
      metadata: { source: "manual", room: 2 },
      tags: ["garden"],
      session_id: "sess-9",
      agent_id: "gardener",
      expires_at: expires,
      pinned: true,
      immutable: true,
    });
    const plain = await w.storeNew("The greenhouse door sticks in wet weather");
    const body = await search(w, { query: "greenhouse" });
    const byId = Object.fromEntries(body.memories.map((m: Json) => [m.id, m]));
    expect(Object.keys(byId).sort()).toEqual([full, plain].sort());
    expect(byId[full]).toMatchObject({
      metadata: { source: "manual", room: 2, tags: ["garden"] },
      pinned: true,
      immutable: true,
      session_id: "sess-9",
      agent_id: "gardener",
      expires_at: expires,
    });
    expect(byId[plain]).toMatchObject({ metadata: {}, pinned: false, immutable: false });
    for (const key of ["session_id", "agent_id", "expires_at"]) {
      expect(byId[plain], key).not.toHaveProperty(key);
    }
    // The client alias answers the same items.
    expect((await searchGet(w, "q=greenhouse")).memories).toEqual(body.memories);
  });

  it("matches word forms through stemming", async () => {
    const w = newWallet();
    const runs = await w.storeNew("She runs five kilometres along the river every morning");
    const meeting = await w.storeNew("Weekly meetings with the design department happen online");
    await w.storeNew("The cat sleeps on the sofa all afternoon");

    const running = await search(w, { query: "running" });
    expect(ids(running)).toEqual([runs]);
    expect(running.total).toBe(1);
    expect(running.query).toBe("running");

    expect(ids(await search(w, { query: "meeting" }))).toEqual([meeting]);
    expect(ids(await search(w, { query: "departments" }))).toEqual([meeting]);
  });

  it("returns an empty result when nothing matches", async () => {
    const w = newWallet();
    await w.storeNew("Apples and pears grow in the northern orchard");
    const body = await search(w, { query: "submarine" });
    expect(body).toEqual({ memories: [], total: 0, query: "submarine" });
  });

  it("requires every word of the query (AND semantics)", async () => {
    const w = newWallet();
    const both = await w.storeNew("The solar panel on the barn roof was replaced");
    await w.storeNew("Solar eclipses are visible only from a narrow path");
    await w.storeNew("A panel discussion about urban housing policy");
    const body = await search(w, { query: "solar panel" });
    expect(ids(body)).toEqual([both]);
    expect(body.total).toBe(1);
  });

  it("ranks the memory that mentions the term more often first", async () => {
    const w = newWallet();
    // Stored first, so recency alone would rank it last.
    const many = await w.storeNew(
      "Garden plan: raised garden beds, a garden shed, garden paths and a herb garden",
    );
    await sleep(20);
    const once = await w.storeNew("The neighbours borrowed our ladder for the garden fence");
    await sleep(20);
    const unrelated = await w.storeNew("Invoices are due at the end of each month");
    const body = await search(w, { query: "garden" });
    expect(ids(body)).toEqual([many, once]);
    expect(ids(body)).not.toContain(unrelated);
    expect(body.total).toBe(2);
  });

  it("ranks the memory where the terms stand closer together first", async () => {
    const w = newWallet();
    const close = await w.storeNew("Coffee grinder settings: burr coarse for the french press");
    await sleep(20);
    const far = await w.storeNew(
      "The coffee shop downtown changed owners last spring and now the old burr machine " +
        "sits in the storage room behind the counter",
    );
    const body = await search(w, { query: "coffee burr" });
    expect(ids(body)).toEqual([close, far]);
  });

  it("reports the real number of matches when limit is smaller", async () => {
    const w = newWallet();
    await w.storeAll([
      "Pelicans dive from great heights to catch fish",
      "A pelican colony nests on the small island",
      "Brown pelicans were once endangered in America",
      "The zoo's pelican enclosure reopened this week",
    ]);
    await w.storeNew("Flamingos stand on one leg to save energy");

    const one = await search(w, { query: "pelican", limit: 1 });
    expect(one.memories).toHaveLength(1);
    expect(one.total).toBe(4);

    const three = await search(w, { query: "pelican", limit: 3 });
    expect(three.memories).toHaveLength(3);
    expect(three.total).toBe(4);

    const all = await search(w, { query: "pelican" });
    expect(all.memories).toHaveLength(4);
    expect(all.total).toBe(4);
    // The first page is a prefix of the full ranking.
    expect(ids(three)).toEqual(ids(all).slice(0, 3));
  });

  it("defaults to 10 results", async () => {
    const w = newWallet();
    await w.storeMany(
      Array.from({ length: 12 }, (_, i) => ({
        // One namespace each: deduplication only compares memories of the same namespace.
        content: `Lighthouse keeper log entry ${i}`,
        namespace: `ns${i}`,
      })),
    );
    const body = await search(w, { query: "lighthouse" });
    expect(body.memories).toHaveLength(10);
    expect(body.total).toBe(12);
  });
});
