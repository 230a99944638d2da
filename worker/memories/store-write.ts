/**
 * A store's writes as one statement (store.ts): the namespaces' version claim, the merge
 * targets' locks, the new rows, the merged rows, the `supersedes` relations (updates/plan.ts)
 * and the stored memories read back, in one
 * round trip and one implicit transaction, so it is all or nothing by itself.
 *
 * It writes only if every merge target is still live at the version the probe read (its
 * updated_at: a PATCH or a delete may come between, and no namespace lock keeps them out), and,
 * with `seen` (the versions the probe read), only if every namespace is still at that version;
 * otherwise it writes nothing and answers `ok = false`. Without `seen`, the caller already
 * holds the namespaces (lockNamespaces) in its transaction.
 */
import { type SQL, sql } from "drizzle-orm";
import { memories, relations } from "../../schema/tables";
import { vectorLiteral } from "../../schema/vector-literal";
import { changedVia, writtenBy } from "../changes/writer";
import type { Scope } from "../sharing/scope";
import { insertStatement } from "./insert";
import type { Draft } from "./merge";
import { claimVersions, type Versions } from "./namespace-version";
import { isLive, type MemoryRecord, memoryAnswerColumns, recordFromRow } from "./rows";
import { factKey } from "./updates/detect";
import type { Supersession } from "./updates/plan";

export interface StoreWrite {
  userId: string;
  /** Whose memories, through which grant: what the answer's replacement fields may name. */
  scope: Scope;
  /** The writer's wallet, lower-case (a grantee's, when it writes through a grant). */
  createdBy: string;
  /** The write-grant condition of a grantee's store (sharing/scope.ts); absent: the owner's. */
  granted?: SQL;
  model: string;
  /** Every draft of the plan (store-plan.ts): new ones are inserted, dirty ones updated. */
  drafts: Draft[];
  /** `supersedes` relations to make (updates/plan.ts), between the wallet's memories. */
  supersessions: Supersession[];
  /** Ids to read back unchanged (merged into without a change: immutable memories). */
  unchanged: string[];
  /** Return every public column (store and batch store answer with them), else ids. */
  withMemories: boolean;
  /** The namespace versions the probe read; absent when the caller holds the namespaces. */
  seen?: Versions;
}

export interface StoreWriteResult {
  /** False when a claim failed: nothing was written. */
  ok: boolean;
  /** The rows written or read back (ids only without `withMemories`). */
  rows: MemoryRecord[];
}

const ids = (drafts: Draft[]) => sql.param(drafts.map((d) => d.id));

export function storeWriteStatement(w: StoreWrite): SQL {
  const created = w.drafts.filter((d) => d.isNew);
  const merged = w.drafts.filter((d) => !d.isNew && d.dirty);
  const returning = (alias?: string) =>
    w.withMemories ? memoryAnswerColumns(w.scope, alias) : sql.raw(`${alias ? `${alias}.` : ""}id`);
  const namespaces = w.drafts.map((d) => d.namespace);
  // The claim comes first (`go` reads it before the targets), so the version rows are locked
  // before any memory row, in every store (no lock-order deadlock between two stores).
  const claimed = w.seen
    ? sql`(SELECT count(*) FROM claim) = ${new Set(namespaces).size}`
    : sql`true`;
  const guarded = merged.filter((d) => d.seenUpdatedAt !== undefined);
  const targets =
    guarded.length > 0
      ? sql`(SELECT count(*) FROM (
          SELECT ${memories.id} FROM ${memories}
          WHERE ${memories.userId} = ${w.userId} AND ${isLive(memories)}
            AND (${memories.id}, ${memories.updatedAt}) IN (
              SELECT * FROM unnest(${ids(guarded)}::uuid[],
                ${sql.param(guarded.map((d) => d.seenUpdatedAt))}::timestamptz[]))
          ORDER BY ${memories.id} FOR UPDATE) t) = ${guarded.length}`
      : sql`true`;
  const go = sql`(SELECT ok FROM go)`;
  const insert =
    created.length > 0
      ? insertStatement(
          w.userId,
          w.createdBy,
          w.model,
          created.map((d) => ({
            id: d.id,
            namespace: d.namespace,
            content: d.content,
            metadata: d.metadata,
            tags: d.tags,
            importance: d.importance,
            memoryType: d.input?.memoryType ?? "general",
            sessionId: d.input?.sessionId ?? null,
            agentId: d.input?.agentId ?? null,
            pinned: d.pinned,
            immutable: d.immutable,
            expiresAt: d.expiresAt,
            occurredAt: d.input?.occurredAt ?? null,
            factKey: factKey(d.content),
            vector: d.vector,
            hash: d.hash,
          })),
          { when: go, returning: returning() },
        )
      : sql`SELECT ${returning("m")} FROM ${memories} m WHERE false`;
  // A merge that kept the existing text changes no vector: `v` is null for it.
  const update =
    merged.length > 0
      ? sql`UPDATE ${memories} m SET
          content = coalesce(d.content, m.content),
          embedding = coalesce(d.v::vector, m.embedding),
          embedding_model = CASE WHEN d.v IS NULL THEN m.embedding_model ELSE ${w.model} END,
          content_hash = coalesce(d.hash, m.content_hash),
          fact_key = CASE WHEN d.v IS NULL THEN m.fact_key ELSE d.fact_key END,
          tags = ARRAY(SELECT t.v FROM jsonb_array_elements_text(d.tags) WITH ORDINALITY
            AS t(v, n) ORDER BY t.n),
          metadata = d.metadata, importance = d.importance, pinned = d.pinned,
          expires_at = d.expires_at, updated_at = now()
        FROM unnest(${ids(merged)}::uuid[],
          ${sql.param(merged.map((d) => (d.vector.length > 0 ? d.content : null)))}::text[],
          ${sql.param(merged.map((d) => (d.vector.length > 0 ? vectorLiteral(d.vector) : null)))}::text[],
          ${sql.param(merged.map((d) => (d.vector.length > 0 ? d.hash : null)))}::text[],
          ${sql.param(merged.map((d) => JSON.stringify(d.tags)))}::jsonb[],
          ${sql.param(merged.map((d) => JSON.stringify(d.metadata)))}::jsonb[],
          ${sql.param(merged.map((d) => d.importance))}::real[],
          ${sql.param(merged.map((d) => d.pinned))}::boolean[],
          ${sql.param(merged.map((d) => d.expiresAt?.toISOString() ?? null))}::timestamptz[],
          ${sql.param(merged.map((d) => (d.vector.length > 0 ? factKey(d.content) : null)))}::text[])
          AS d(id, content, v, hash, tags, metadata, importance, pinned, expires_at, fact_key)
        WHERE m.id = d.id AND m.user_id = ${w.userId} AND ${go}
          AND ${changedVia("merge")} AND ${writtenBy(w.createdBy)}
        RETURNING ${returning("m")}`
      : sql`SELECT ${returning("m")} FROM ${memories} m WHERE false`;
  // Each end is the wallet's: a new row of this statement, or one the probe found (a named
  // one checked as writable, a noticed one current). A relation already there stays as it was.
  const related =
    w.supersessions.length > 0
      ? sql`INSERT INTO ${relations} (user_id, source_id, target_id, relation_type, metadata)
        SELECT ${w.userId}::uuid, r.source_id, r.target_id, 'supersedes', r.metadata
        FROM unnest(${sql.param(w.supersessions.map((r) => r.sourceId))}::uuid[],
          ${sql.param(w.supersessions.map((r) => r.targetId))}::uuid[],
          ${sql.param(w.supersessions.map((r) => JSON.stringify(r.metadata)))}::jsonb[])
          AS r(source_id, target_id, metadata)
        WHERE ${go}
        ON CONFLICT (source_id, target_id, relation_type) DO NOTHING
        RETURNING id`
      : sql`SELECT NULL::uuid AS id WHERE false`;
  const kept =
    w.unchanged.length > 0
      ? sql`SELECT ${returning("m")} FROM ${memories} m
        WHERE m.user_id = ${w.userId} AND m.id = ANY(${sql.param(w.unchanged)}::uuid[]) AND ${go}`
      : sql`SELECT ${returning("m")} FROM ${memories} m WHERE false`;
  return sql`
    WITH ${w.seen ? sql`claim AS (${claimVersions(w.userId, namespaces, w.seen)}),` : sql``}
    go AS MATERIALIZED (SELECT ${claimed} AND ${targets} AND ${w.granted ?? sql`true`} AS ok),
    ins AS (${insert}),
    upd AS (${update}),
    rel AS (${related}),
    kept AS (${kept})
    SELECT go.ok, r.* FROM go LEFT JOIN (
      SELECT * FROM ins UNION ALL SELECT * FROM upd UNION ALL SELECT * FROM kept
    ) r ON go.ok`;
}

/** Reads storeWriteStatement's answer. */
export function storeWriteResult(rows: Record<string, unknown>[], withMemories: boolean) {
  const ok = rows[0]?.ok === true;
  const written = ok ? rows.filter((r) => r.id !== null && r.id !== undefined) : [];
  return {
    ok,
    rows: written.map((r) =>
      withMemories ? recordFromRow(r) : ({ id: r.id } as unknown as MemoryRecord),
    ),
  } satisfies StoreWriteResult;
}
