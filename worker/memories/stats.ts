/** Per-wallet overviews: namespaces and usage statistics. */
import { sql } from "drizzle-orm";
import type { DomainContext } from "../context";
import { liveMemory, roundImportance } from "./rows";

export async function listNamespaces(ctx: DomainContext, agentId?: string) {
  const agent = agentId === undefined ? sql`` : sql`AND agent_id = ${agentId}`;
  const result = await ctx.db.execute<{
    name: string;
    count: number;
    last_memory_at: Date | string;
  }>(sql`
    SELECT namespace AS name, count(*)::int AS count, max(created_at) AS last_memory_at
    FROM memories WHERE ${liveMemory(ctx)} ${agent}
    GROUP BY namespace ORDER BY namespace`);
  const namespaces = result.rows.map((r) => ({
    name: r.name,
    count: Number(r.count),
    last_memory_at: new Date(r.last_memory_at).toISOString(),
  }));
  return { namespaces, total: namespaces.length };
}

type StatsRow = {
  total_memories: number;
  pinned_count: number;
  never_accessed: number;
  total_accesses: number;
  avg_importance: number | null;
  oldest_memory: Date | string | null;
  newest_memory: Date | string | null;
};

export async function memoryStats(ctx: DomainContext, namespace?: string) {
  const ns = namespace === undefined ? sql`` : sql`AND namespace = ${namespace}`;
  const scope = sql`${liveMemory(ctx)} ${ns}`;
  const [totals, byType, byNamespace, rels] = await Promise.all([
    ctx.db.execute<StatsRow>(sql`
      SELECT count(*)::int AS total_memories,
             count(*) FILTER (WHERE pinned)::int AS pinned_count,
             count(*) FILTER (WHERE access_count = 0)::int AS never_accessed,
             coalesce(sum(access_count), 0)::int AS total_accesses,
             avg(importance)::float8 AS avg_importance,
             min(created_at) AS oldest_memory,
             max(created_at) AS newest_memory
      FROM memories WHERE ${scope}`),
    ctx.db.execute<{ memory_type: string; count: number }>(sql`
      SELECT memory_type, count(*)::int AS count FROM memories WHERE ${scope}
      GROUP BY memory_type ORDER BY count DESC, memory_type`),
    ctx.db.execute<{ namespace: string; count: number }>(sql`
      SELECT namespace, count(*)::int AS count FROM memories WHERE ${scope}
      GROUP BY namespace ORDER BY count DESC, namespace`),
    ctx.db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM relations r
      JOIN memories s ON s.id = r.source_id JOIN memories t ON t.id = r.target_id
      WHERE r.user_id = ${ctx.userId}
        AND s.deleted_at IS NULL AND t.deleted_at IS NULL
        AND (s.expires_at IS NULL OR s.expires_at > now())
        AND (t.expires_at IS NULL OR t.expires_at > now())
        ${namespace === undefined ? sql`` : sql`AND s.namespace = ${namespace}`}`),
  ]);
  const t = totals.rows[0];
  const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
  return {
    total_memories: Number(t?.total_memories ?? 0),
    pinned_count: Number(t?.pinned_count ?? 0),
    never_accessed: Number(t?.never_accessed ?? 0),
    total_accesses: Number(t?.total_accesses ?? 0),
    avg_importance: t?.avg_importance == null ? 0 : roundImportance(Number(t.avg_importance)),
    oldest_memory: iso(t?.oldest_memory),
    newest_memory: iso(t?.newest_memory),
    by_type: byType.rows.map((r) => ({ memory_type: r.memory_type, count: Number(r.count) })),
    by_namespace: byNamespace.rows.map((r) => ({ namespace: r.namespace, count: Number(r.count) })),
    total_relations: Number(rels.rows[0]?.n ?? 0),
  };
}
