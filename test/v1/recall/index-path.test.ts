/**
 * POST /v1/recall above 2,000 memories: candidates come from the indexes (HNSW, full text,
 * most accessed) instead of a scan, and filters still apply before the limit.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fmix32, LocalEmbedder } from "../../../worker/embed/local";
import { userIdOf, withDb } from "../../db";
import { type Json, newWallet } from "../../helpers";
import { recall } from "./fixtures";

describe("POST /v1/recall: above 2,000 memories, candidates come from the indexes", () => {
  const BULK_WORDS = "amber basil cedar delta ember fjord garnet harbor indigo jasper kelp lagoon"
    .split(" ")
    .flatMap((a) => ["north", "south", "east", "west", "upper", "lower"].map((b) => `${a}${b}`));
  const bulkText = (i: number) =>
    Array.from({ length: 9 }, (_, k) => BULK_WORDS[fmix32(i * 977 + k * 131) % BULK_WORDS.length])
      .concat(`item${i}`)
      .join(" ");

  /**
   * 2,110 memories: 2,060 tagged "bulk" (more than EXACT_SCAN_MAX, so recall takes the HNSW,
   * full-text and most-accessed candidates) and 50 untagged ones that match the query best.
   * Seeded through the data layer (2,000 API stores would dominate the suite's run time);
   * the needle goes through the API, which also creates the wallet.
   */
  async function largeFixture() {
    const w = newWallet();
    const needle = await w.storeNew("zeppelin quartz observatory ledger for the winter solstice", {
      tags: ["bulk"],
    });
    const embedder = new LocalEmbedder();
    const rows: Array<{ content: string; tags: string[] }> = [];
    for (let i = 0; i < 2059; i++) rows.push({ content: bulkText(i), tags: ["bulk"] });
    for (let i = 0; i < 50; i++)
      rows.push({ content: `zeppelin quartz observatory ledger copy ${i} solstice`, tags: [] });
    await withDb(async (db) => {
      const userId = await userIdOf(db, w);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const { vectors } = await embedder.embed(chunk.map((r) => r.content));
        const values = chunk.map(
          (r, j) =>
            sql`(${userId}, ${r.content}, ${`{${r.tags.join(",")}}`}::text[], ${`[${(vectors[j] ?? []).join(",")}]`}::vector,
              ${embedder.model}, md5(${r.content}), ${w.address.toLowerCase()})`,
        );
        await db.execute(sql`INSERT INTO memories
          (user_id, content, tags, embedding, embedding_model, content_hash, created_by)
          VALUES ${sql.join(values, sql`, `)}`);
      }
    });
    return { w, needle };
  }

  it("finds the best match and applies filters before the limit", async () => {
    const { w, needle } = await largeFixture();
    const query = "zeppelin quartz observatory ledger solstice";

    // Unfiltered: the untagged copies and the needle are the top matches.
    const all = await recall(w, { query, limit: 20 });
    expect(all.memories).toHaveLength(20);
    for (const m of all.memories) expect(m.content).toMatch(/zeppelin quartz observatory/);

    // Filtered to "bulk" (2,060 memories in scope): the needle first, then a full page of
    // bulk memories, none of the better-matching untagged copies.
    const bulk = await recall(w, { query, limit: 30, filters: { tags: ["bulk"] } });
    expect(bulk.memories).toHaveLength(30);
    expect(bulk.memories[0].id).toBe(needle);
    for (const m of bulk.memories) expect(m.tags).toContain("bulk");
    const scores = bulk.memories.map((m: Json) => m.similarity);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // A bulk memory is found by its own words, ahead of everything else.
    const own = await recall(w, { query: bulkText(1234), limit: 5 });
    expect(own.memories[0].content).toBe(bulkText(1234));

    // A question joining two names runs a sub-query per name in the same statement: each
    // name's memory is found, and a memory found twice is returned once.
    const joined = await recall(w, { query: "Item1234 and Item77", limit: 10 });
    const ids = joined.memories.map((m: Json) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const contents = joined.memories.map((m: Json) => m.content);
    expect(contents).toContain(bulkText(1234));
    expect(contents).toContain(bulkText(77));
    const joinedScores = joined.memories.map((m: Json) => m.similarity);
    expect(joinedScores).toEqual([...joinedScores].sort((a, b) => b - a));
  });
});
