/**
 * GET /v1/suggested: memories worth a look, each in one category (checked in this order):
 *   stale     importance ≥ 0.7 and not accessed for 30 days or more
 *   decaying  not pinned, and its type decay (scoring.ts) is between 0.25 and 0.5: past one
 *             half-life, before it drops out of recall
 *   hot       recalled 5 times or more
 *   fresh     stored within the last 7 days and never recalled
 * review_score (0-1, higher first):
 *   stale     importance · (1 − exp(−idle_days / 30))
 *   decaying  importance · (1 − type_decay) · 2        (0.5-0.75 decay → 1-0.5 of importance)
 *   hot       min(1, access_count / 20)
 *   fresh     importance · exp(−age_days / 7)
 * `categories` counts every matching memory, not only the returned page.
 */
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import * as f from "../memories/fields";
import { filterConditions } from "../memories/list";
import { rawMemory } from "../memories/rows";
import { replacementColumns } from "../memories/updates/current";
import { grantedNamespace } from "../sharing/scope";
import { HALF_LIFE_DAYS } from "./scoring";

export const CATEGORIES = ["stale", "fresh", "hot", "decaying"] as const;
export const RULES = {
  staleImportance: 0.7,
  staleIdleDays: 30,
  decayLow: 0.25,
  decayHigh: 0.5,
  hotAccesses: 5,
  freshDays: 7,
} as const;

export const suggestedQuery = z.object({
  limit: f.queryInt(1, 50, 10),
  category: z.enum(CATEGORIES).optional(),
  namespace: f.scope.optional(),
  session_id: f.scope.optional(),
  agent_id: f.scope.optional(),
});

type Row = {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
  tags: string[];
  importance: number;
  memory_type: string;
  namespace: string;
  session_id: string | null;
  agent_id: string | null;
  created_by: string;
  created_at: Date | string;
  occurred_at: Date | string;
  supersedes: unknown;
  superseded_by: unknown;
  accessed_at: Date | string;
  access_count: number;
  relation_count: number | string;
  category: (typeof CATEGORIES)[number];
  review_score: number | string;
};

export async function suggest(ctx: DomainContext, q: z.output<typeof suggestedQuery>) {
  const where = sql.join(
    filterConditions(ctx, {
      namespace: q.namespace,
      session_id: q.session_id,
      agent_id: q.agent_id,
    }),
    sql` AND `,
  ) as SQL;
  const halfLife = sql.raw(
    `CASE memory_type ${Object.entries(HALF_LIFE_DAYS)
      .map(([t, d]) => `WHEN '${t}' THEN ${d}`)
      .join(" ")} ELSE ${HALF_LIFE_DAYS.general} END`,
  );
  const r = RULES;
  const base = sql`
    WITH m AS (
      SELECT id, content, metadata, tags, importance, memory_type, namespace, session_id, agent_id,
        created_at, occurred_at, accessed_at, access_count, pinned, created_by,
        ${replacementColumns(memories.id, ctx)},
        extract(epoch FROM now() - accessed_at) / 86400.0 AS idle_days,
        extract(epoch FROM now() - created_at) / 86400.0 AS age_days,
        -- A grantee's count: relations whose other end it may read, as a FILTER (candidates.ts).
        (SELECT count(*) FILTER (WHERE ${grantedNamespace(ctx, sql.raw("o.namespace"))}) FROM relations rl
          JOIN memories o ON o.id = CASE WHEN rl.source_id = memories.id THEN rl.target_id ELSE rl.source_id END
          WHERE (rl.source_id = memories.id OR rl.target_id = memories.id)
            AND o.deleted_at IS NULL AND (o.expires_at IS NULL OR o.expires_at > now())) AS relation_count,
        ${halfLife} AS half_life
      FROM memories WHERE ${where}
    ),
    d AS (
      SELECT m.*, CASE WHEN pinned THEN 1.0
        ELSE power(0.5, idle_days / (half_life * (1 + ln(1 + relation_count)))) END AS type_decay
      FROM m
    ),
    c AS (
      SELECT d.*, CASE
        WHEN importance >= ${r.staleImportance} AND idle_days >= ${r.staleIdleDays} THEN 'stale'
        WHEN NOT pinned AND type_decay >= ${r.decayLow} AND type_decay < ${r.decayHigh} THEN 'decaying'
        WHEN access_count >= ${r.hotAccesses} THEN 'hot'
        WHEN age_days <= ${r.freshDays} AND access_count = 0 THEN 'fresh'
      END AS category
      FROM d
    ),
    s AS (
      SELECT c.*, CASE category
        WHEN 'stale' THEN importance * (1 - exp(-idle_days / 30.0))
        WHEN 'decaying' THEN importance * (1 - type_decay) * 2
        WHEN 'hot' THEN least(1.0, access_count / 20.0)
        WHEN 'fresh' THEN importance * exp(-age_days / 7.0)
      END AS review_score
      FROM c WHERE category IS NOT NULL
    )`;
  const [page, counts] = await Promise.all([
    ctx.db.execute<Row>(sql`${base}
      SELECT * FROM s ${q.category ? sql`WHERE category = ${q.category}` : sql``}
      ORDER BY review_score DESC, created_at DESC LIMIT ${q.limit}`),
    ctx.db.execute<{ category: string; n: number }>(sql`${base}
      SELECT category, count(*)::int AS n FROM s GROUP BY category`),
  ]);
  const categories = { stale: 0, fresh: 0, hot: 0, decaying: 0 };
  for (const row of counts.rows) {
    if (row.category in categories)
      categories[row.category as keyof typeof categories] = Number(row.n);
  }
  return {
    suggested: page.rows.map((m) => ({
      ...rawMemory(m),
      accessed_at: new Date(m.accessed_at).toISOString(),
      relation_count: Number(m.relation_count),
      category: m.category,
      review_score: Math.round(Number(m.review_score) * 1e6) / 1e6,
    })),
    categories,
    total: q.category
      ? categories[q.category]
      : Object.values(categories).reduce((a, b) => a + b, 0),
  };
}
