/**
 * New memory rows in one statement: INSERT … SELECT over `unnest` of one array per column,
 * as raw SQL, so it can be one part of a store's write statement (store-write.ts).
 *
 * drizzle's multi-row VALUES binds 16 parameters a row (1,600 for a batch of 100) and writes
 * each vector as JSON: building that statement took ~16 ms in Node for 100 rows, and Postgres
 * then parsed 1,600 parameters. Here: 16 arrays, a few ms to build, most of it the vectors'
 * text (vectorLiteral). A batch's write went from 35-45 to 21-25 ms (docs/benchmarks.md).
 */
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import { vectorLiteral } from "../../schema/vector-literal";
import type { MemoryRecord } from "./rows";

/** A new memory's fields (as stored), its vector and its content's hash. */
export type NewRow = Pick<
  MemoryRecord,
  | "id"
  | "namespace"
  | "content"
  | "metadata"
  | "tags"
  | "importance"
  | "memoryType"
  | "sessionId"
  | "agentId"
  | "pinned"
  | "immutable"
  | "expiresAt"
> & {
  vector: number[];
  hash: string;
  /** When the fact was said or became true; null: now. */
  occurredAt: Date | null;
  /** The attribute family its words name (updates/detect.ts, factKey). */
  factKey: string | null;
};

type Insertable = keyof typeof memories.$inferInsert;

/**
 * The INSERT of `rows` for the wallet (written by `createdBy`, a wallet), their vectors of `model`, only `when` it holds (a
 * condition on the rest of the statement); RETURNING `returning`.
 */
export function insertStatement(
  userId: string,
  createdBy: string,
  model: string,
  rows: NewRow[],
  { when, returning }: { when: SQL; returning: SQL },
): SQL {
  const arrays = sql`unnest(
    ${sql.param(rows.map((r) => r.id))}::uuid[],
    ${sql.param(rows.map((r) => r.namespace))}::text[],
    ${sql.param(rows.map((r) => r.content))}::text[],
    ${sql.param(rows.map((r) => JSON.stringify(r.metadata)))}::jsonb[],
    ${sql.param(rows.map((r) => JSON.stringify(r.tags)))}::jsonb[],
    ${sql.param(rows.map((r) => r.importance))}::real[],
    ${sql.param(rows.map((r) => r.memoryType))}::text[],
    ${sql.param(rows.map((r) => r.sessionId))}::text[],
    ${sql.param(rows.map((r) => r.agentId))}::text[],
    ${sql.param(rows.map((r) => r.pinned))}::boolean[],
    ${sql.param(rows.map((r) => r.immutable))}::boolean[],
    ${sql.param(rows.map((r) => r.expiresAt?.toISOString() ?? null))}::timestamptz[],
    ${sql.param(rows.map((r) => vectorLiteral(r.vector)))}::text[],
    ${sql.param(rows.map((r) => r.hash))}::text[],
    ${sql.param(rows.map((r) => r.occurredAt?.toISOString() ?? null))}::timestamptz[],
    ${sql.param(rows.map((r) => r.factKey))}::text[]
  ) AS u(id, namespace, content, metadata, tags, importance, memory_type, session_id,
         agent_id, pinned, immutable, expires_at, embedding, content_hash, occurred_at, fact_key)`;
  // One expression per insertable column: a column added to the table without one here is
  // a type error, and the SELECT list follows the table's order, as drizzle's INSERT
  // column list does.
  const values: Record<Insertable, SQL> = {
    id: sql`u.id`,
    userId: sql`${userId}::uuid`,
    namespace: sql`u.namespace`,
    content: sql`u.content`,
    metadata: sql`u.metadata`,
    tags: sql`ARRAY(SELECT t.v FROM jsonb_array_elements_text(u.tags) WITH ORDINALITY AS t(v, n)
      ORDER BY t.n)`,
    importance: sql`u.importance`,
    memoryType: sql`u.memory_type`,
    sessionId: sql`u.session_id`,
    agentId: sql`u.agent_id`,
    pinned: sql`u.pinned`,
    immutable: sql`u.immutable`,
    expiresAt: sql`u.expires_at`,
    createdAt: sql`now()`,
    updatedAt: sql`now()`,
    accessedAt: sql`now()`,
    accessCount: sql`0`,
    deletedAt: sql`NULL::timestamptz`,
    embedding: sql`u.embedding::vector`,
    embeddingModel: sql`${model}::text`,
    contentHash: sql`u.content_hash`,
    ann: sql`false`,
    createdBy: sql`${createdBy}::text`,
    occurredAt: sql`coalesce(u.occurred_at, now())`,
    factKey: sql`u.fact_key`,
  };
  const columns = Object.entries(getTableColumns(memories))
    // drizzle's own rule for the INSERT column list (Column.shouldDisableInsert).
    .filter(
      ([, column]) => column.generated === undefined || column.generated.type === "byDefault",
    );
  const names = columns.map(([, column]) => sql.identifier(column.name));
  const list = columns.map(([key]) => values[key as Insertable]);
  return sql`INSERT INTO ${memories} (${sql.join(names, sql`, `)})
    SELECT ${sql.join(list, sql`, `)} FROM ${arrays} WHERE ${when}
    RETURNING ${returning}`;
}
