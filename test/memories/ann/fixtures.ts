/**
 * What the approximate index's tests share: large wallets seeded through the data layer
 * (2,000 API stores would dominate the suite's run time), their index state, and recall's
 * first answers.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "../../../worker/db/client";
import { LocalEmbedder } from "../../../worker/embed/local";
import { GRAPH_MIN } from "../../../worker/memories/ann";
import { userIdOf, withDb } from "../../db";
import { newWallet, type Wallet } from "../../helpers";
import { workerWith } from "../../worker-with";

/** How many of the wallet's live memories are in the graph, and how many wait for it. */
export const counts = (db: Db, userId: string) =>
  db
    .execute<{ indexed: number; backlog: number }>(sql`
      SELECT count(*) FILTER (WHERE ann)::int AS indexed, count(*) FILTER (WHERE NOT ann)::int AS backlog
      FROM memories WHERE user_id = ${userId} AND deleted_at IS NULL`)
    .then((r) => r.rows[0] ?? { indexed: 0, backlog: 0 });

const WORDS = "amber basalt cedar dune ember fjord glacier harbor islet jasper kelp lagoon"
  .split(" ")
  .flatMap((a) => ["north", "south", "east", "west"].map((b) => `${a}${b}`));
/** The `i`th of many distinct texts made of WORDS, ending in its number. */
export const bulkText = (i: number) =>
  Array.from({ length: 8 }, (_, k) => WORDS[(i * 7 + k * 13 + ((i * k) % 11)) % WORDS.length])
    .concat(`entry${i}`)
    .join(" ");

/**
 * A wallet of `n` data-layer memories (none indexed), created through one API store, calling
 * a Worker that puts wallets above `graphMin` memories in the graph.
 */
export async function largeWallet(n: number, graphMin = GRAPH_MIN) {
  const w = newWallet(
    graphMin === GRAPH_MIN ? undefined : workerWith({ ...env, GRAPH_MIN: String(graphMin) }),
  );
  const first = await w.storeNew("the first memory of a large wallet, stored through the API");
  const embedder = new LocalEmbedder();
  const userId = await withDb(async (db) => {
    const id = await userIdOf(db, w);
    for (let i = 0; i < n; i += 500) {
      const texts = Array.from({ length: Math.min(500, n - i) }, (_, j) => bulkText(i + j));
      const { vectors } = await embedder.embed(texts);
      const values = texts.map(
        (t, j) =>
          sql`(${id}, ${t}, ${`[${(vectors[j] ?? []).join(",")}]`}::vector, ${embedder.model}, md5(${t}), ${w.address.toLowerCase()})`,
      );
      await db.execute(sql`INSERT INTO memories
        (user_id, content, embedding, embedding_model, content_hash, created_by)
        VALUES ${sql.join(values, sql`, `)}`);
    }
    return id;
  });
  return { w, userId, first };
}

/** The contents POST /v1/recall returns first for `query` (5 at most). */
export const recallTop = async (w: Wallet, query: string) => {
  const res = await w.post("/v1/recall", { query, limit: 5 });
  expect(res.status).toBe(200);
  return res.body.memories.map((m: { content: string }) => m.content);
};
