/**
 * Full-text keyword search: Postgres `websearch_to_tsquery` over the generated tsvector
 * (GIN-indexed), ranked by `ts_rank_cd` then recency. No embedding is computed.
 */
import { and, arrayOverlaps, eq, gte, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import * as f from "./fields";
import { clientMemoryFields, liveMemory, shortMemory, summaryColumns } from "./rows";
import { inShard } from "./shard";
import { isCurrent, replacementSelect } from "./updates/current";

export const searchInput = z.object({
  query: f.nonBlankText(1000),
  limit: z.number().int().min(1).max(100).optional(),
  namespace: f.scope.optional(),
  memory_type: f.memoryType.optional(),
  tags: f.tags.optional(),
  session_id: f.scope.optional(),
  agent_id: f.scope.optional(),
  after: f.isoDate.optional(),
  /** Replaced memories too (docs/knowledge-updates.md); current ones only by default. */
  include_superseded: z.boolean().optional(),
});
export type SearchInput = z.output<typeof searchInput>;

/** The client alias `GET /v1/memories/search?q=...` in query-string form. */
export const searchQueryString = z
  .object({
    q: z.string().optional(),
    query: z.string().optional(),
    limit: f.queryInt(1, 100, 10),
    namespace: z.string().optional(),
    memory_type: z.string().optional(),
    tags: f.csv.optional(),
    session_id: z.string().optional(),
    agent_id: z.string().optional(),
    after: z.string().optional(),
    include_superseded: f.queryBool.optional(),
    // A grantee's owner (docs/sharing.md): read by the middleware, declared as on every
    // route a grantee may call.
    owner: z.string().optional(),
  })
  .transform(({ q, query, owner: _owner, ...rest }, ctx) => {
    const parsed = searchInput.safeParse({ ...rest, query: q ?? query ?? "" });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
    return z.NEVER;
  });

export async function searchMemories(ctx: DomainContext, input: SearchInput) {
  const tsq = sql`websearch_to_tsquery('english', ${input.query})`;
  const conds: SQL[] = [
    liveMemory(ctx),
    isCurrent(memories.id, memories.occurredAt, { includeSuperseded: input.include_superseded }),
    // The wallet's shard names its partial GIN index (shard.ts).
    inShard(ctx.userId),
    sql`${memories.search} @@ ${tsq}`,
  ];
  if (input.namespace !== undefined) conds.push(eq(memories.namespace, input.namespace));
  if (input.memory_type !== undefined) conds.push(eq(memories.memoryType, input.memory_type));
  if (input.tags && input.tags.length > 0) conds.push(arrayOverlaps(memories.tags, input.tags));
  if (input.session_id !== undefined) conds.push(eq(memories.sessionId, input.session_id));
  if (input.agent_id !== undefined) conds.push(eq(memories.agentId, input.agent_id));
  if (input.after) conds.push(gte(memories.createdAt, input.after));

  const rank = sql<number>`ts_rank_cd(${memories.search}, ${tsq})`;
  const rows = await ctx.db
    .select({
      ...summaryColumns,
      ...clientMemoryFields,
      ...replacementSelect(memories.id, ctx),
      total: sql<number>`count(*) OVER ()`.mapWith(Number),
    })
    .from(memories)
    .where(and(...conds))
    .orderBy(sql`${rank} DESC`, sql`${memories.createdAt} DESC`)
    .limit(input.limit ?? 10);

  return {
    memories: rows.map(({ total: _t, ...r }) => shortMemory(r)),
    total: rows[0]?.total ?? 0,
    query: input.query,
  };
}
