/**
 * What the GET /v1/suggested tests share: the call with the checks every answer must pass,
 * and backdating. Old timestamps are set directly in the database for a fresh wallet's
 * memories (the API cannot backdate them).
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { userIdOf, withDb } from "../../db";
import type { Json, Wallet } from "../../helpers";

export const ITEM_KEYS = [
  "access_count",
  "accessed_at",
  "agent_id",
  "category",
  "content",
  "created_by",
  "created_at",
  "id",
  "importance",
  "memory_type",
  "metadata",
  "namespace",
  "occurred_at",
  "relation_count",
  "review_score",
  "session_id",
  "superseded_by",
  "supersedes",
].sort();

export interface Backdate {
  createdDaysAgo: number;
  accessedDaysAgo: number;
  accessCount?: number;
}

/** Moves a memory of the wallet back in time (and optionally sets its access count). */
export async function backdate(w: Wallet, changes: Record<string, Backdate>): Promise<void> {
  await withDb(async (db) => {
    const userId = await userIdOf(db, w);
    for (const [id, c] of Object.entries(changes)) {
      const res = await db.execute(sql`
        UPDATE memories SET
          created_at = now() - make_interval(secs => ${c.createdDaysAgo * 86400}),
          occurred_at = now() - make_interval(secs => ${c.createdDaysAgo * 86400}),
          accessed_at = now() - make_interval(secs => ${c.accessedDaysAgo * 86400}),
          access_count = ${c.accessCount ?? 0}
        WHERE id = ${id} AND user_id = ${userId}`);
      expect(res.rowCount).toBe(1);
    }
  });
}

export async function suggested(w: Wallet, query = ""): Promise<Json> {
  const res = await w.get(`/v1/suggested${query ? `?${query}` : ""}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["categories", "suggested", "suggestions", "total"]);
  // Client extra: the public MCP server reads the same list as `suggestions`.
  expect(res.body.suggestions).toEqual(res.body.suggested);
  expect(Object.keys(res.body.categories).sort()).toEqual(["decaying", "fresh", "hot", "stale"]);
  for (const item of res.body.suggested) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
  for (let i = 1; i < res.body.suggested.length; i++) {
    expect(res.body.suggested[i - 1].review_score).toBeGreaterThanOrEqual(
      res.body.suggested[i].review_score,
    );
  }
  return res.body;
}

export const byId = (body: Json) =>
  new Map<string, Json>(body.suggested.map((s: Json) => [s.id, s]));
