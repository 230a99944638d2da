/**
 * The column set and serialisation every memory read shares, and the one condition that
 * scopes a query to the caller's live memories (not deleted, not expired).
 */
import { type AnyColumn, and, eq, gt, isNull, or, type SQL, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import { grantedNamespace, type Scope } from "../sharing/scope";
import { replacementColumns, replacementOf, replacementRecord } from "./updates/current";

/** Every public column; never the embedding or the tsvector (large, and internal). */
export const memoryColumns = {
  id: memories.id,
  userId: memories.userId,
  namespace: memories.namespace,
  content: memories.content,
  embeddingModel: memories.embeddingModel,
  metadata: memories.metadata,
  tags: memories.tags,
  importance: memories.importance,
  memoryType: memories.memoryType,
  sessionId: memories.sessionId,
  agentId: memories.agentId,
  pinned: memories.pinned,
  immutable: memories.immutable,
  expiresAt: memories.expiresAt,
  createdAt: memories.createdAt,
  updatedAt: memories.updatedAt,
  accessedAt: memories.accessedAt,
  accessCount: memories.accessCount,
  createdBy: memories.createdBy,
  occurredAt: memories.occurredAt,
};

/**
 * The columns of a memory summary under their response names: search results and the
 * entries of POST /v1/context start from these.
 */
export const summaryColumns = {
  id: memories.id,
  content: memories.content,
  importance: memories.importance,
  memory_type: memories.memoryType,
  namespace: memories.namespace,
  tags: memories.tags,
  created_at: memories.createdAt,
};

/**
 * Columns the short memory objects of core list and search carry beyond the spec's, under
 * their response names: the public SDKs parse those objects as full memories (the Python
 * SDK refuses them without the first five, and reads defaults for the others when absent:
 * `{}` metadata, unpinned, mutable, no session). shortMemory serialises them.
 */
export const clientMemoryFields = {
  user_id: memories.userId,
  embedding_model: memories.embeddingModel,
  updated_at: memories.updatedAt,
  accessed_at: memories.accessedAt,
  access_count: memories.accessCount,
  metadata: memories.metadata,
  pinned: memories.pinned,
  immutable: memories.immutable,
  session_id: memories.sessionId,
  agent_id: memories.agentId,
  expires_at: memories.expiresAt,
  created_by: memories.createdBy,
  occurred_at: memories.occurredAt,
};

/**
 * A core or search item: the spec's summary fields and the client extras above, dates in
 * ISO 8601, metadata with its tags as everywhere. `session_id`, `agent_id` and `expires_at`
 * appear only when set: these extras are not spec fields, the public MCP server's output
 * schemas refuse a null there, and the SDKs read an absent one as null.
 */
export function shortMemory<
  R extends {
    importance: number;
    tags: string[];
    created_at: Date;
    updated_at: Date;
    accessed_at: Date;
    metadata: Record<string, unknown>;
    session_id: string | null;
    agent_id: string | null;
    expires_at: Date | null;
    occurred_at: Date;
    supersedes: unknown;
    superseded_by: unknown;
  },
>(row: R) {
  const { session_id, agent_id, expires_at, supersedes: _s, superseded_by: _b, ...rest } = row;
  return {
    ...rest,
    importance: roundImportance(row.importance),
    metadata: withTags(row.metadata, row.tags),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    accessed_at: row.accessed_at.toISOString(),
    occurred_at: row.occurred_at.toISOString(),
    ...replacementOf(row),
    ...(session_id === null ? {} : { session_id }),
    ...(agent_id === null ? {} : { agent_id }),
    ...(expires_at === null ? {} : { expires_at: expires_at.toISOString() }),
  };
}

export interface MemoryRecord {
  id: string;
  userId: string;
  namespace: string;
  content: string;
  embeddingModel: string | null;
  metadata: Record<string, unknown>;
  tags: string[];
  importance: number;
  memoryType: string;
  sessionId: string | null;
  agentId: string | null;
  pinned: boolean;
  immutable: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  accessedAt: Date;
  accessCount: number;
  /** The wallet that stored it (the owner's, or a grantee's). */
  createdBy: string;
  /** When the fact was said or became true. */
  occurredAt: Date;
  /** The memories it replaces, and the one replacing it (updates/current.ts). */
  supersedes: string[];
  supersededBy: string | null;
}

/**
 * memoryColumns in raw SQL, for statements drizzle's builder cannot write (a data-modifying
 * WITH): the columns under their database names, of table alias `m` (or none).
 */
export function memoryColumnList(alias?: string): SQL {
  const prefix = alias ? `${alias}.` : "";
  return sql.raw(
    Object.values(memoryColumns)
      .map((c) => `${prefix}"${c.name}"`)
      .join(", "),
  );
}

/**
 * memoryColumnList with the replacement fields (updates/current.ts) of the scope: what a
 * statement selects to answer with whole memories.
 */
export function memoryAnswerColumns(scope: Scope, alias?: string): SQL {
  return sql`${memoryColumnList(alias)}, ${replacementColumns(sql.raw(`${alias ?? "memories"}.id`), scope)}`;
}

/**
 * A row of memoryColumnList, as drizzle would have mapped it (names and dates), with its
 * replacement fields when it has them (memoryAnswerColumns), else none.
 */
export function recordFromRow(row: Record<string, unknown>): MemoryRecord {
  const out: Record<string, unknown> = replacementRecord(row);
  for (const [key, column] of Object.entries(memoryColumns)) {
    const value = row[column.name];
    out[key] =
      column.dataType === "date" && value !== null && value !== undefined
        ? new Date(value as string)
        : column.name === "importance" || column.name === "access_count"
          ? Number(value)
          : value;
  }
  return out as unknown as MemoryRecord;
}

/**
 * The caller's memories not soft-deleted, expired or not: what sizes a scope (exact or HNSW
 * search, the indexer's threshold), since an index answers it alone, without reading rows.
 */
export function undeletedMemory(scope: Scope): SQL {
  return and(
    eq(memories.userId, scope.userId),
    grantedNamespace(scope),
    isNull(memories.deletedAt),
  ) as SQL;
}

/** The scope's memories that exist for every query: not soft-deleted, not expired. */
export function liveMemory(scope: Scope): SQL {
  return and(
    undeletedMemory(scope),
    or(isNull(memories.expiresAt), gt(memories.expiresAt, sql`now()`)),
  ) as SQL;
}

/**
 * The same liveness test for an aliased memories table (the other end of a relation): not
 * soft-deleted, not expired. Ownership is checked on the relation itself.
 */
export function isLive(m: { deletedAt: AnyColumn | SQL; expiresAt: AnyColumn | SQL }): SQL {
  return sql`${m.deletedAt} IS NULL AND (${m.expiresAt} IS NULL OR ${m.expiresAt} > now())`;
}

/** isLive of a memories table under a raw alias (`s` in `JOIN memories s`). */
export const isLiveAs = (alias: string): SQL =>
  isLive({ deletedAt: sql.raw(`${alias}.deleted_at`), expiresAt: sql.raw(`${alias}.expires_at`) });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `importance` is stored as real (float4); round away the float noise (0.7 → 0.699999988). */
export const roundImportance = (n: number) => Math.round(n * 1e6) / 1e6;

export function toMemory(row: MemoryRecord) {
  return {
    id: row.id,
    user_id: row.userId,
    namespace: row.namespace,
    content: row.content,
    embedding_model: row.embeddingModel,
    metadata: withTags(row.metadata, row.tags),
    tags: row.tags,
    importance: roundImportance(row.importance),
    memory_type: row.memoryType,
    session_id: row.sessionId,
    agent_id: row.agentId,
    pinned: row.pinned,
    immutable: row.immutable,
    expires_at: iso(row.expiresAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    accessed_at: iso(row.accessedAt),
    access_count: row.accessCount,
    created_by: row.createdBy,
    occurred_at: iso(row.occurredAt),
    supersedes: row.supersedes,
    superseded_by: row.supersededBy,
  };
}

export type MemoryJson = ReturnType<typeof toMemory>;

/** The columns of a memory as raw SQL returns them (numbers may arrive as strings). */
export interface RawMemoryRow {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
  tags: string[];
  importance: number;
  namespace: string;
  memory_type: string;
  session_id: string | null;
  agent_id: string | null;
  created_at: Date | string;
  access_count: number;
  created_by: string;
  occurred_at: Date | string;
  supersedes?: unknown;
  superseded_by?: unknown;
}

/** The fields recall and suggested both answer with, from a raw SQL row. */
export function rawMemory(row: RawMemoryRow) {
  return {
    id: row.id,
    content: row.content,
    metadata: withTags(row.metadata, row.tags),
    importance: roundImportance(Number(row.importance)),
    namespace: row.namespace,
    memory_type: row.memory_type,
    session_id: row.session_id,
    agent_id: row.agent_id,
    created_at: new Date(row.created_at).toISOString(),
    access_count: Number(row.access_count),
    created_by: row.created_by,
    occurred_at: new Date(row.occurred_at).toISOString(),
    ...replacementOf(row),
  };
}

/** metadata as clients see it: `metadata.tags` mirrors the tags column when there are tags. */
export function withTags(metadata: Record<string, unknown>, tags: string[]) {
  const { tags: _ignored, ...rest } = metadata;
  return tags.length > 0 ? { ...rest, tags } : rest;
}
