/**
 * scoreSql, the score Postgres ranks recall's candidates by, against scoreMemory, the reference
 * that computes the returned score: the same inputs give the same score, on whichever database
 * the suite runs. Recall re-sorts what SQL picked, so a twin that drifts picks the wrong rows.
 */
import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  type ScoreInput,
  scoreMemory,
  scoreSql,
  type VectorScale,
} from "../../../worker/recall/scoring";
import { withDb } from "../../db";
import { daysAgo, input, NOW } from "./fixtures";

const f8 = (x: number) => sql`${x}::float8`;

function sqlScore(m: ScoreInput, scale: VectorScale | null): SQL {
  return scoreSql(
    {
      vector: f8(m.vector),
      keyword: f8(m.keyword),
      importance: f8(m.importance),
      memoryType: sql`${m.memoryType}::text`,
      pinned: sql`${m.pinned}::boolean`,
      accessCount: sql`${m.accessCount}::int`,
      relationCount: sql`${m.relationCount}::int`,
      createdAt: sql`${m.createdAt.toISOString()}::timestamptz`,
      accessedAt: sql`${m.accessedAt.toISOString()}::timestamptz`,
    },
    NOW,
    scale && { median: f8(scale.median), best: f8(scale.best), n: f8(scale.n) },
  );
}

describe("scoring: the SQL twin", () => {
  it("gives scoreMemory's score for every scope size, near-ties included", async () => {
    const scales: Array<VectorScale | null> = [
      null,
      { median: 0.717, best: 0.717, n: 1 },
      { median: 0.7065, best: 0.717, n: 2 },
      { median: 0.717, best: 0.75, n: 3 },
      { median: 0.6, best: 0.75, n: 4 },
      { median: 0.51, best: 0.6, n: 10 },
      { median: 0.45, best: 0.82, n: 2000 },
    ];
    const inputs: ScoreInput[] = [];
    for (const vector of [0, 0.3, 0.52, 0.6, 0.696, 0.717, 0.75, 0.9])
      for (const keyword of [0, 0.4, 1])
        inputs.push(
          input({
            vector,
            keyword,
            importance: vector > 0.6 ? 0.1 : 0.9,
            memoryType: keyword > 0.5 ? "observation" : "decision",
            pinned: vector === 0.3,
            accessCount: Math.round(vector * 10),
            relationCount: keyword > 0 ? 2 : 0,
            createdAt: daysAgo(vector * 40),
            accessedAt: daysAgo(keyword * 20),
          }),
        );
    await withDb(async (db) => {
      for (const scale of scales) {
        const columns = inputs.map((m, i) => sql`${sqlScore(m, scale)} AS ${sql.raw(`s${i}`)}`);
        const { rows } = await db.execute(sql`SELECT ${sql.join(columns, sql`, `)}`);
        const row = rows[0] as Record<string, number | string>;
        inputs.forEach((m, i) => {
          const expected = scoreMemory(m, NOW, scale).score;
          expect(Number(row[`s${i}`]), JSON.stringify({ scale, m })).toBeCloseTo(expected, 12);
        });
      }
    });
  });
});
