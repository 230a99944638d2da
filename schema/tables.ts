/**
 * Every table of the service, in one place.
 *
 * users      one row per wallet; `wallet` is stored lower-case so lookups are case-insensitive.
 * memories   the memory records. `tags` mirrors `metadata.tags` as a text[] so tag filters use
 *            a GIN index; `search` is a generated tsvector for full-text search; `embedding`
 *            is the 384-d vector of `content`. Soft-deleted rows keep `deleted_at`; expired
 *            rows keep their `expires_at`: both are filtered out of every query. `shard`
 *            (generated from user_id) picks the row's partial HNSW index; `ann` says the row
 *            is in it. Rows are written with `ann = false` and indexed after the response,
 *            only for wallets too large for exact scans (worker/memories/ann.ts).
 * relations  typed, directed links between two memories of the same user. A memory with a
 *            `supersedes` relation from a live memory is replaced: history, not current
 *            (worker/updates/current.ts).
 * memory_history  one row per PATCH of a memory, holding the changed fields' new values.
 * namespace_versions  a write counter per (wallet, namespace), for deduplication without locks.
 * memory_grants  a wallet's read or write grant of one of its namespaces to another wallet.
 * memory_events   every change to a wallet's memories, relations and grants, in commit order
 *            (the change feed, worker/changes; migration 0014's triggers write them).
 * event_counters  the last event number of each wallet, and how far its events were pruned.
 *            (event_pending, one row per transaction and wallet awaiting numbers at commit,
 *            is migration 0014's own, like its triggers.)
 * webhooks / webhook_deliveries  endpoints told of a wallet's events, and their attempts.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { vectorLiteral } from "./vector-literal";

export const EMBEDDING_DIMENSIONS = 384;

/**
 * The HNSW index is split into this many partial indexes by `memories.shard` (a byte of the
 * owner's id), so a wallet's approximate search walks a graph of its own shard only, not
 * every wallet's vectors. worker/memories/ann.ts computes the same shard in the Worker.
 */
export const ANN_SHARDS = 32;

const tsvector = customType<{ data: string }>({
  dataType: () => "tsvector",
});

/**
 * pgvector's `vector(n)`, as drizzle's own column but written to Postgres by vectorLiteral
 * (hexadecimal floats) instead of as JSON: the same stored float4s, parsed four times faster
 * by the embedded database. So every write of a vector goes one way, whether through a
 * drizzle insert or update or through the service's own SQL (recall, deduplication, batch
 * store). Read back, pgvector prints the shortest decimals, which JSON.parse reads.
 */
const vector = customType<{ data: number[]; driverData: string; config: { dimensions: number } }>({
  dataType: (config) => `vector(${config?.dimensions ?? EMBEDDING_DIMENSIONS})`,
  toDriver: (value) => vectorLiteral(value),
  fromDriver: (value) => JSON.parse(value) as number[],
});

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

/**
 * A row's owner or parent, removed with it (every table but users belongs to a wallet, and
 * relations, history and job facts to their memory or job). `table` is read lazily, so a
 * table may name one defined below it.
 */
const belongsTo = (column: string, table: () => { id: AnyPgColumn }) =>
  uuid(column)
    .notNull()
    .references(() => table().id, { onDelete: "cascade" });

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  wallet: text("wallet").notNull().unique(),
  ...timestamps,
});

// Table options drizzle has no place for, set by migrations: 0009 toast_tuple_target = 4080
// (rows stay whole up to ~4 KB, so recall reads `search` without a trip to TOAST), and 0010
// parallel_workers = 0 (no parallel plans for one wallet's rows: starting the workers cost
// recall 12 ms at 100k memories).
export const memories = pgTable(
  "memories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: belongsTo("user_id", () => users),
    namespace: text("namespace").notNull().default("default"),
    content: text("content").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    importance: real("importance").notNull().default(0.5),
    memoryType: text("memory_type").notNull().default("general"),
    sessionId: text("session_id"),
    agentId: text("agent_id"),
    pinned: boolean("pinned").notNull().default(false),
    immutable: boolean("immutable").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    accessedAt: timestamp("accessed_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    accessCount: integer("access_count").notNull().default(0),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
    embedding: vector("embedding", { dimensions: EMBEDDING_DIMENSIONS }),
    embeddingModel: text("embedding_model"),
    contentHash: text("content_hash").notNull(),
    search: tsvector("search").notNull().generatedAlwaysAs(sql`to_tsvector('english', "content")`),
    shard: smallint("shard")
      .notNull()
      .generatedAlwaysAs(sql.raw(`(get_byte(uuid_send("user_id"), 0) % ${ANN_SHARDS})::smallint`)),
    ann: boolean("ann").notNull().default(false),
    /** The wallet that stored it: the owner's, or a grantee's (memory_grants). */
    createdBy: text("created_by").notNull(),
    /**
     * When the fact was said or became true (the store's `occurred_at`, default the time of
     * storing): recency and the order of replacements (docs/knowledge-updates.md) read it.
     */
    occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    /**
     * The attribute family the content names (worker/memories/updates/detect.ts, factKey), or
     * null: a new fact is judged against the current memories of its key, whatever their words.
     */
    factKey: text("fact_key"),
  },
  // No index may cover access_count or accessed_at: recall updates them for every memory it
  // returns, and with no indexed column changed (and room on the page: fillfactor 70,
  // migration 0005) the update is HOT and writes no index entry. Before, each one re-inserted
  // the row into the HNSW and GIN indexes: ~4.5 ms a memory, 100 took 450 ms.
  (t) => [
    // A wallet's live rows newest first: listing pages (ORDER BY created_at, id), and with
    // expires_at in the key, counts of live memories (list totals, recall's scope) read the
    // index alone. Without it Postgres seq-scanned a wallet holding most of the table.
    index("memories_user_live_idx")
      // NULLS FIRST: what a plain `ORDER BY … DESC` means, so the planner can use this order.
      .on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.expiresAt)
      .where(sql`${t.deletedAt} IS NULL`),
    index("memories_user_namespace_idx")
      .on(t.userId, t.namespace)
      .where(sql`${t.deletedAt} IS NULL`),
    index("memories_user_hash_idx").on(t.userId, t.namespace, t.contentHash),
    // A GIN index buffers new entries in a pending list that every search scans whole until a
    // vacuum merges it (4 MB by default: 20-40 ms a keyword query after a burst of stores);
    // 256 kB keeps that scan short and inserts still batched.
    index("memories_tags_idx").using("gin", t.tags).with({ gin_pending_list_limit: 256 }),
    // One full-text index per shard, like the HNSW graphs below: a query's posting lists are
    // then those of ~1/32 of the table (worker/memories/shard.ts).
    ...Array.from({ length: ANN_SHARDS }, (_, i) =>
      index(`memories_search_s${i}_idx`)
        .using("gin", t.search)
        .with({ gin_pending_list_limit: 256 })
        .where(sql`${t.deletedAt} IS NULL AND ${t.shard} = ${sql.raw(String(i))}`),
    ),
    // One HNSW graph per shard, of indexed rows only: inserting into HNSW costs ~1 ms a row,
    // so the store leaves it to the indexer (ann.ts), and small wallets never pay it at all.
    ...Array.from({ length: ANN_SHARDS }, (_, i) =>
      index(`memories_embedding_s${i}_idx`)
        .using("hnsw", t.embedding.op("vector_cosine_ops"))
        .with({ m: 16, ef_construction: 64 })
        .where(sql`${t.deletedAt} IS NULL AND ${t.ann} AND ${t.shard} = ${sql.raw(String(i))}`),
    ),
    // Rows not (yet) in the HNSW index: what exact scans cover, and the indexer's work list.
    index("memories_ann_backlog_idx")
      .on(t.userId, t.namespace)
      .where(sql`${t.deletedAt} IS NULL AND NOT ${t.ann}`),
    // A namespace's live memories of one fact key, latest first: the store's replacement
    // candidates, read in this order up to the few it wants however many share the key.
    index("memories_fact_key_idx")
      .on(t.userId, t.namespace, t.factKey, t.occurredAt.desc())
      .where(sql`${t.deletedAt} IS NULL AND ${t.factKey} IS NOT NULL`),
    // Live rows with an expiry: a list's total is memory_counts minus those expired by now.
    index("memories_user_expiring_idx")
      .on(t.userId, t.expiresAt)
      .where(sql`${t.deletedAt} IS NULL AND ${t.expiresAt} IS NOT NULL`),
  ],
);

/**
 * How many live (not soft-deleted) memories each wallet has per namespace, expired ones
 * included: the sum of `live` over a wallet's rows. Statement triggers on `memories`
 * (migration 0008) append one row of change per (wallet, namespace) a write touches, in the
 * writing transaction; worker/memories/live-count.ts reads the sums and folds a wallet's rows
 * into one per namespace once they pile up. Appending, not updating one counter row: a
 * counter row locked by a store until its commit, wanted by a bulk delete holding rows the
 * store waits for, would deadlock the two. A list's total read as a count(*) walked the
 * wallet's index: 10-25 ms at 100k memories. Expired rows are subtracted at read time, since
 * a row expires without a write. No foreign key: rows deleted with their wallet append their
 * own negative change.
 */
export const memoryCounts = pgTable(
  "memory_counts",
  {
    userId: uuid("user_id").notNull(),
    namespace: text("namespace").notNull(),
    live: integer("live").notNull(),
  },
  (t) => [index("memory_counts_user_idx").on(t.userId, t.namespace)],
);

/**
 * A counter per (wallet, namespace), raised by every write that creates memories there
 * (store, batch store, import, ingest, Markdown import), in the writing transaction. It is
 * how deduplication stays exact without holding a lock across round trips: a store reads
 * the namespace's version with its duplicate probe, and its one write statement raises the
 * version only if it is still the one read (worker/memories/namespace-version.ts). A store
 * that finds it changed wrote nothing, and runs again under the row's lock. No foreign key:
 * a row of a deleted wallet only costs its few bytes.
 */
export const namespaceVersions = pgTable(
  "namespace_versions",
  {
    userId: uuid("user_id").notNull(),
    namespace: text("namespace").notNull(),
    version: integer("version").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.namespace] })],
);

export const relations = pgTable(
  "relations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: belongsTo("user_id", () => users),
    sourceId: belongsTo("source_id", () => memories),
    targetId: belongsTo("target_id", () => memories),
    relationType: text("relation_type").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("relations_edge_unique").on(t.sourceId, t.targetId, t.relationType),
    index("relations_source_idx").on(t.sourceId),
    index("relations_target_idx").on(t.targetId),
    index("relations_user_idx").on(t.userId),
    // Whether a memory is replaced (a live incoming `supersedes`) is asked of every row a
    // read considers: this answers it from a small index of those relations alone.
    index("relations_supersedes_target_idx")
      .on(t.targetId)
      .where(sql`${t.relationType} = 'supersedes'`),
  ],
);

export const memoryHistory = pgTable(
  "memory_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    memoryId: belongsTo("memory_id", () => memories),
    userId: belongsTo("user_id", () => users),
    changes: jsonb("changes").$type<Record<string, unknown>>().notNull(),
    ...timestamps,
    /** The wallet whose PATCH wrote it: the owner's, or a grantee's. */
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("memory_history_memory_idx").on(t.memoryId, t.createdAt)],
);

export const PERMISSIONS = ["read", "write"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * A wallet's grant of one of its namespaces to another wallet (docs/sharing.md): `read`, or
 * `write` (which reads too). Revoking deletes the row, so the next statement that checks it
 * (every shared read and write checks it in the statement itself) no longer finds it. The
 * key serves that check: the namespaces one owner granted one grantee.
 */
export const memoryGrants = pgTable(
  "memory_grants",
  {
    ownerId: belongsTo("owner_id", () => users),
    /** The grantee's wallet, lower-case like users.wallet. */
    grantee: text("grantee").notNull(),
    namespace: text("namespace").notNull(),
    permission: text("permission", { enum: PERMISSIONS }).notNull(),
    ...timestamps,
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.grantee, t.namespace] }),
    index("memory_grants_grantee_idx").on(t.grantee),
    check("memory_grants_permission_check", sql`${t.permission} IN ('read', 'write')`),
  ],
);

export type MemoryRow = typeof memories.$inferSelect;
export type RelationRow = typeof relations.$inferSelect;

/**
 * Background jobs (`async: true` on extract, ingest and consolidate; worker/jobs, queues/).
 *
 * jobs       one row per accepted job, scoped to its user like a memory (another wallet's job
 *            is a 404). `kind` is ingest | extract | consolidate; `status` goes queued →
 *            running → succeeded | failed, back to queued while a retry waits. `input` is the
 *            validated request body (without `async`), `result` the body the synchronous call
 *            answers, `error` `{code, message}` as in the API's error body: the last failure
 *            while retries remain, the final reason once failed. `attempts` counts deliveries
 *            that started running the job.
 * job_facts  what a job already stored, one row per fact content (its SHA-256), written in the
 *            same transaction as the memories themselves: a retried job stores none of these
 *            again and reports them as the first attempt did (`deduplicated` as it was then).
 */
export const JOB_KINDS = ["ingest", "extract", "consolidate"] as const;
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: belongsTo("user_id", () => users),
    kind: text("kind", { enum: JOB_KINDS }).notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    input: jsonb("input").$type<Record<string, unknown>>().notNull(),
    result: jsonb("result").$type<Record<string, unknown>>(),
    error: jsonb("error").$type<{ code: string; message: string }>(),
    attempts: integer("attempts").notNull().default(0),
    ...timestamps,
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    check("jobs_kind_check", sql`${t.kind} IN ('ingest', 'extract', 'consolidate')`),
    check("jobs_status_check", sql`${t.status} IN ('queued', 'running', 'succeeded', 'failed')`),
  ],
);

export const jobFacts = pgTable(
  "job_facts",
  {
    jobId: belongsTo("job_id", () => jobs),
    contentHash: text("content_hash").notNull(),
    memoryId: belongsTo("memory_id", () => memories),
    deduplicated: boolean("deduplicated").notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.jobId, t.contentHash] })],
);

export type JobRow = typeof jobs.$inferSelect;

/**
 * The change feed (docs/changes.md): one row per change to a wallet's memories, relations or
 * grants, written by triggers (migration 0014) in the transaction of the change itself, so no
 * write path can forget one and none costs a round trip. `seq` is the wallet's event number:
 * NULL while the transaction runs, given at its commit by a deferred trigger that holds the
 * wallet's event_counters row until the commit is done. Numbers are therefore in commit order,
 * without gaps, and a reader that has seen N has seen every number below N: a transaction that
 * started earlier but commits later gets a later number. No foreign key: rows written while a
 * wallet is deleted (its relations' cascade) would fail one; they go with the counter row.
 */
export const memoryEvents = pgTable(
  "memory_events",
  {
    userId: uuid("user_id").notNull(),
    seq: bigint("seq", { mode: "number" }),
    /** Order within one transaction (a global identity), for numbering at commit. */
    ord: bigint("ord", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    id: uuid("id").notNull().defaultRandom(),
    kind: text("kind").notNull(),
    namespace: text("namespace").notNull(),
    memoryId: uuid("memory_id"),
    /** The wallet that made the change, when the statement said (else the memory's writer). */
    createdBy: text("created_by"),
    at: timestamp("at", { withTimezone: true, mode: "date" })
      .notNull()
      .default(sql`clock_timestamp()`),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    /** The writing transaction (pg_current_xact_id()), to number its events at commit. */
    txid: text("txid").notNull().default(sql`(pg_current_xact_id())::text`),
  },
  (t) => [
    uniqueIndex("memory_events_seq_idx").on(t.userId, t.seq),
    // A grantee's share of the feed: the events of its granted namespaces, each found by its
    // own range, and their last (the end of the feed as it may see it).
    index("memory_events_namespace_idx").on(t.userId, t.namespace, t.seq),
    index("memory_events_pending_idx").on(t.txid).where(sql`${t.seq} IS NULL`),
    index("memory_events_at_idx").on(t.userId, t.at),
    // An expiry is told once per expiry time: two feed readers sweeping at once insert one.
    uniqueIndex("memory_events_expired_idx")
      .on(t.memoryId, sql`(${t.data}->>'expires_at')`)
      .where(sql`${t.kind} = 'memory.expired'`),
  ],
);

/** Per wallet: the last event number given, and the last one pruned (older cursors: 410). */
export const eventCounters = pgTable("event_counters", {
  userId: uuid("user_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull().default(0),
  prunedThrough: bigint("pruned_through", { mode: "number" }).notNull().default(0),
});

/**
 * Endpoints told of changes (docs/changes.md, "Webhooks"). `user_id` registered it and
 * `owner_id` is whose events it hears: the same wallet, or an owner who granted `namespace`
 * to it (the grant is checked again at every delivery). `cursor` is the last event number
 * handed to the delivery queue.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: belongsTo("user_id", () => users),
    ownerId: belongsTo("owner_id", () => users),
    url: text("url").notNull(),
    /** Event kinds to send; empty for all. */
    events: text("events").array().notNull().default(sql`'{}'::text[]`),
    namespace: text("namespace"),
    includeContent: boolean("include_content").notNull().default(false),
    secret: text("secret").notNull(),
    cursor: bigint("cursor", { mode: "number" }).notNull().default(0),
    /** Since when every delivery has failed; null after any success. */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "date" }),
    disabledReason: text("disabled_reason"),
    ...timestamps,
  },
  (t) => [index("webhooks_owner_idx").on(t.ownerId), index("webhooks_user_idx").on(t.userId)],
);

/** One row per delivery attempt (the recent ones are kept: GET /v1/webhooks/:id/deliveries). */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    webhookId: belongsTo("webhook_id", () => webhooks),
    eventId: uuid("event_id").notNull(),
    kind: text("kind").notNull(),
    attempt: integer("attempt").notNull(),
    /** The endpoint's HTTP status, or null when no answer came (error says why). */
    status: integer("status"),
    ok: boolean("ok").notNull(),
    error: text("error"),
    latencyMs: integer("latency_ms").notNull(),
    ...timestamps,
  },
  (t) => [index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt)],
);
