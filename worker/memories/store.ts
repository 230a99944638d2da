/**
 * Storing memories, with deduplication: a new memory whose embedding has cosine similarity
 * ≥ 0.95 with a live memory of the same wallet and namespace is merged into that memory
 * instead of creating a record. What a merge does (documented in docs/memories.md):
 *   content     never loses either text (dedup-rule.ts): texts that differ in a number, date,
 *               name or negation do not merge at all; otherwise the existing text when it
 *               contains the new one, the new one when it contains the existing one, else
 *               both (re-embedded); the vector follows the content
 *   tags        union, existing first, capped at 10
 *   importance  the higher of the two
 *   metadata    existing keys, overwritten by the new memory's keys (kept as is if over 4 KB)
 *   pinned      pinned if either is
 *   expires_at  no expiry if either has none, else the later of the two
 *   type, session_id, agent_id   the existing memory's
 * An immutable memory is never changed by a merge; the store still reports it as the
 * deduplicated id. Merges write no history entry (only PATCH does).
 *
 * Two statements after the embedding: the duplicate probe with the namespaces' versions, and
 * one write statement that claims those versions (namespace-version.ts, store-write.ts). At
 * 40 ms from the database that is 2 round trips where BEGIN, lock, probe, insert, COMMIT were
 * 5. When a concurrent store of the same namespace wins the claim, the store runs again in a
 * transaction that locks the namespaces first: the old path, taken only under contention.
 *
 * A grantee's store checks its grant before the embedding, in the probe and in the write
 * statement (sharing/write-check.ts): a grant revoked in between writes nothing, and the next
 * attempt's probe refuses.
 *
 * On a database that serves one client at a time (Env.DATABASE_SERIAL, the embedded one) every
 * statement holds it for every other wallet, so the probe is cut into statements of
 * SERIAL_PROBE_CHUNK items: 100 probes into a wallet of 10,000 were one statement of 0.7-1.5 s
 * in WebAssembly, during which every other wallet's recall waited (docs/benchmarks.md,
 * "Neighbours"). The write claims the versions the first of them read, so a write of the
 * namespace between two of them fails the claim as it would between probe and write.
 */
import { type SQL, sql } from "drizzle-orm";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import type { DbOrTx } from "../db/client";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/hash";
import { OWNER_ONLY, ownerOnlyRefusal } from "../sharing/owner-only";
import { grantedNamespaces, permissionsOf } from "../sharing/scope";
import { assertWritable, type Permissions, refuseUnwritable } from "../sharing/write-check";
import { GRAPH_MIN, indexBacklog } from "./ann";
import { foldLiveCounts } from "./live-count";
import { embedJoined, type Nearest } from "./merge";
import { lockNamespaces, readVersions, type Versions } from "./namespace-version";
import { nearestStatement, probesOf } from "./nearest";
import { type MemoryJson, type MemoryRecord, toMemory } from "./rows";
import type { NewMemory } from "./store-input";
import { DEDUP_THRESHOLD, planStore, type StoredItem } from "./store-plan";
import { storeWriteResult, storeWriteStatement } from "./store-write";
import { isCurrent } from "./updates/current";
import { factKey, UPDATE_CANDIDATES, UPDATE_MIN_SIMILARITY } from "./updates/detect";
import { type Keyed, keyedCandidates } from "./updates/keyed";
import { assertReplaceable, type NamedHead, namedHeads, unreplaceable } from "./updates/named";
import {
  planReplacements,
  type RememberingJudge,
  rememberingJudge,
  rulesJudge,
  type Supersession,
  type UpdateJudge,
  withSupersessions,
} from "./updates/plan";

export { DEDUP_THRESHOLD, type StoredItem } from "./store-plan";

/**
 * A shallow HNSW search for the duplicate probe: a duplicate to merge (cosine ≥ 0.95)
 * is next to its probe in the graph, and recall's depth (ef_search 100, migration 0002) made
 * each of a batch's probes several times dearer.
 */
const DEDUP_EF_SEARCH = 20;

/** Items per duplicate probe statement on a serial database (see the module comment). */
const SERIAL_PROBE_CHUNK = 10;

/** Locked attempts after a write that found its merge targets changed (each a PATCH's race). */
const MAX_RETRIES = 3;

export interface StoreResult {
  items: StoredItem[];
  tokensUsed: number;
  /** Each item's memory as the write left it, in item order; empty unless `withMemories`. */
  memories: MemoryJson[];
  /** The `supersedes` relations the store made, said or noticed. */
  supersessions: Supersession[];
}

export interface StoreOptions {
  /**
   * Read the stored memories back in the write (store and batch store answer with them).
   * Off for extract, ingest and import, which answer with ids only.
   */
  withMemories?: boolean;
  /**
   * Who decides whether a new memory replaces a neighbour: the rules by default; ingest and
   * extract pass their language model's judgement (updates/plan.ts).
   */
  judge?: UpdateJudge;
}

interface Batch {
  inputs: NewMemory[];
  vectors: number[][];
  hashes: string[];
  withMemories: boolean;
  /** Ids named in the items' `supersedes` that are not another item's `ref` (import). */
  named: string[];
  /** The time of storing, for items without `occurred_at`. */
  now: number;
  judge: RememberingJudge;
}

/**
 * Stores memories in order, all or nothing, in a fixed number of round trips whatever the
 * batch size: one embedding call, the probe (each item's nearest live memory and the
 * namespaces' versions, in one statement), the merges decided here, and one write statement.
 * Later items of a batch merge into earlier ones too.
 */
export async function storeMemories(
  ctx: DomainContext,
  inputs: NewMemory[],
  options: StoreOptions = {},
): Promise<StoreResult> {
  // Through a grant, pinned and immutable are the owner's (false is their default).
  const ownerOnly = ownerOnlyRefusal(
    ctx,
    OWNER_ONLY.filter((k) => inputs.some((m) => m[k])),
  );
  if (ownerOnly) throw ownerOnly;
  // Through a grant, a refused store must not cost an embedding first: its free call is given
  // back, so the work would be free.
  await assertWritable(
    ctx,
    inputs.map((m) => m.namespace),
  );
  const refs = new Set(inputs.flatMap((m) => (m.ref ? [m.ref] : [])));
  const named = [...new Set(inputs.flatMap((m) => m.supersedes.filter((id) => !refs.has(id))))];
  // Nor a store naming a memory it may not replace (one statement, only when it names one).
  if (named.length > 0) await assertReplaceable(ctx, named);
  const embed = () => ctx.embedder.embed(inputs.map((m) => m.content));
  const { vectors, tokens } = await (ctx.timings?.measure("embed", embed) ?? embed());
  if (vectors.length !== inputs.length) {
    throw new ApiError("INTERNAL_ERROR", "Embedding count mismatch");
  }
  const hashes = await Promise.all(inputs.map((m) => sha256Hex(m.content)));
  const batch: Batch = {
    inputs,
    vectors,
    hashes,
    withMemories: options.withMemories ?? false,
    named,
    now: Date.now(),
    judge: rememberingJudge(options.judge ?? rulesJudge),
  };

  const locked = () =>
    ctx.db.transaction(async (tx) => {
      await lockNamespaces(
        tx,
        ctx.userId,
        inputs.map((m) => m.namespace),
      );
      return attempt(ctx, tx, batch, false);
    });
  let outcome = await attempt(ctx, ctx.db, batch, true);
  let extraTokens = outcome.tokens;
  // Another store of the namespace came between the probe and the claim, or a PATCH or delete
  // changed a memory to merge into: again, under the namespaces' lock, reading them afresh.
  for (let again = 0; !outcome.written; again++) {
    if (again === MAX_RETRIES) {
      throw new ApiError(
        "SERVICE_UNAVAILABLE",
        "The memories to merge into kept changing during the store; retry shortly",
        undefined,
        { "Retry-After": "1" },
      );
    }
    outcome = await locked();
    extraTokens += outcome.tokens;
  }
  const { items, rows, supersessions } = outcome;
  // New rows are outside the HNSW index: the indexer takes them after the response, if the
  // wallet is large enough to be searched through it (ann.ts).
  if (items.some((item) => !item.deduplicated)) {
    ctx.afterwards(`ann:${ctx.userId}`, (db) =>
      indexBacklog(db, ctx.userId, ctx.config.GRAPH_MIN ?? GRAPH_MIN),
    );
    // Each store appends a row of change to memory_counts: fold them when they pile up.
    ctx.afterwards(`counts:${ctx.userId}`, (db) => foldLiveCounts(db, ctx.userId));
  }
  const byId = new Map(rows.map((r) => [r.id, withSupersessions(r, supersessions)]));
  const memories = batch.withMemories
    ? items.flatMap((o) => {
        const row = byId.get(o.id);
        return row ? [toMemory(row)] : [];
      })
    : [];
  return { items, tokensUsed: tokens + extraTokens, memories, supersessions };
}

interface Attempt {
  written: boolean;
  items: StoredItem[];
  rows: MemoryRecord[];
  supersessions: Supersession[];
  /** Embedding tokens of joined texts. */
  tokens: number;
}

/**
 * Probe, plan and write once. `optimistic`: the write claims the versions the probe read and
 * writes nothing if one moved; otherwise the caller holds the namespaces.
 */
async function attempt(
  ctx: DomainContext,
  db: DbOrTx,
  { inputs, vectors, hashes, withMemories, named, now, judge }: Batch,
  optimistic: boolean,
): Promise<Attempt> {
  const probe = () => probeAll(ctx, db, inputs, vectors, hashes, named);
  const { nearest, keyed, versions, permissions, writable } = await (ctx.timings?.measure(
    "dedup",
    probe,
  ) ?? probe());
  // Checked again here: a grant revoked since the check before the embedding, and found by
  // the write statement's own check, ends here on the next attempt.
  if (permissions) {
    refuseUnwritable(
      permissions,
      inputs.map((m) => m.namespace),
    );
  }
  // Every id a `supersedes` names must be a live memory the caller may write: else the 404 of
  // any missing memory, whether or not it is another wallet's.
  const heads = new Map(writable.map((w) => [w.named, w]));
  const missing = named.find((id) => !heads.has(id));
  if (missing) throw await unreplaceable(ctx, missing);
  const plan = planStore(inputs, vectors, hashes, nearest);
  const drafts = [...plan.drafts.values()];
  // An import's items name each other by the ids they were exported with.
  const byRef = new Map(
    inputs.flatMap((m, i) => (m.ref && plan.items[i] ? [[m.ref, plan.items[i].id] as const] : [])),
  );
  const supersessions = await planReplacements({
    inputs,
    vectors,
    items: plan.items,
    drafts: plan.drafts,
    nearest,
    keyed,
    said: inputs.map((m) => m.supersedes.map((id) => byRef.get(id) ?? heads.get(id)?.id ?? id)),
    now,
    // Under the namespaces' lock, pairs not judged before are the rules' to decide: no
    // language model call holds the lock (an extract's or ingest's model may take seconds).
    judge: optimistic ? judge.judge : judge.rememberedOr(rulesJudge),
  });
  const tokens = await embedJoined(ctx, drafts);
  const unchanged = withMemories ? drafts.filter((d) => !d.isNew && !d.dirty).map((d) => d.id) : [];
  const writing = performance.now();
  const result = await db.execute<Record<string, unknown>>(
    storeWriteStatement({
      userId: ctx.userId,
      scope: ctx,
      createdBy: ctx.wallet.toLowerCase(),
      ...(ctx.grant
        ? {
            granted: grantedNamespaces(ctx, [
              ...inputs.map((m) => m.namespace),
              ...writable.map((w) => w.namespace),
            ]),
          }
        : {}),
      model: ctx.embedder.model,
      drafts,
      supersessions,
      unchanged,
      withMemories,
      ...(optimistic ? { seen: versions } : {}),
    }),
  );
  ctx.timings?.add("write", performance.now() - writing);
  const { ok, rows } = storeWriteResult(result.rows, withMemories);
  return { written: ok, items: plan.items, rows, tokens, supersessions };
}

/**
 * Each item's nearest memory to merge into, and the namespaces' versions as the (first)
 * statement read them: one statement, or on a serial database one per SERIAL_PROBE_CHUNK items.
 */
async function probeAll(
  ctx: DomainContext,
  db: DbOrTx,
  inputs: NewMemory[],
  vectors: number[][],
  hashes: string[],
  named: string[],
): Promise<{
  nearest: Nearest[];
  keyed: Keyed[];
  versions: Versions;
  permissions?: Permissions;
  writable: NamedHead[];
}> {
  const namespaces = inputs.map((m) => m.namespace);
  const detecting = inputs.some((m) => m.detectUpdates);
  // Each detecting item's fact key: its candidates by what it is about (updates/keyed.ts).
  const keys = inputs.map((m) => (m.detectUpdates ? factKey(m.content) : null));
  const chunk = ctx.config.DATABASE_SERIAL === "on" ? SERIAL_PROBE_CHUNK : inputs.length;
  const nearest: Nearest[] = [];
  const keyed: Keyed[] = [];
  let versions: Versions | undefined;
  let permissions: Permissions | undefined;
  let writable: NamedHead[] | undefined;
  for (let from = 0; from < inputs.length; from += chunk) {
    const to = from + chunk;
    const found = await db.execute<{
      nearest: Nearest[];
      keyed?: Keyed[];
      versions: Versions;
      permissions?: Permissions;
      writable?: NamedHead[];
    }>(
      probeStatement(ctx, {
        batchNamespaces: namespaces,
        first: from,
        namespaces: namespaces.slice(from, to),
        vectors: vectors.slice(from, to),
        hashes: hashes.slice(from, to),
        detecting,
        keys: keys.slice(from, to),
        // The first statement checks the named ids, beside the versions.
        named: from === 0 ? named : [],
      }),
    );
    const row = found.rows[0];
    nearest.push(...(row?.nearest ?? []));
    keyed.push(...(row?.keyed ?? []));
    versions ??= row?.versions ?? {};
    permissions ??= row?.permissions;
    writable ??= row?.writable ?? [];
  }
  return {
    nearest,
    keyed,
    versions: versions ?? {},
    ...(permissions ? { permissions } : {}),
    writable: writable ?? [],
  };
}

interface Probe {
  /** Every namespace of the batch: their versions are read. */
  batchNamespaces: string[];
  /** The number of the first item probed here. */
  first: number;
  namespaces: string[];
  vectors: number[][];
  hashes: string[];
  /** Some item detects replacements: its nearest few are wanted, not just a duplicate. */
  detecting: boolean;
  /** The probed items' fact keys (null: none, or no detection). */
  keys: Array<string | null>;
  /** Ids named in `supersedes`, to check. */
  named: string[];
}

/**
 * The items' (numbered from `first`) nearest live memory of their namespace at the merge
 * threshold or above (nearest.ts: exact for small scopes and backlogs, the HNSW shard above),
 * as JSON, beside the versions of all the batch's namespaces: one statement, one snapshot.
 */
function probeStatement(
  ctx: DomainContext,
  { batchNamespaces, first, namespaces, vectors, hashes, detecting, keys, named }: Probe,
): SQL {
  // The depth is set by the probes' own relation, before any HNSW scan starts (ann.ts,
  // annQueryVector, says how), and ends with the statement's transaction.
  const probes = sql`SELECT * FROM (${probesOf(namespaces, vectors, hashes, first)}) p
    WHERE set_config('hnsw.ef_search', ${String(DEDUP_EF_SEARCH)}, true) IS NOT NULL`;
  const nearest = nearestStatement({
    userId: ctx.userId,
    model: ctx.embedder.model,
    probes,
    sameText: true,
    // With detection, the nearest few current memories: the first to merge into, and all
    // of them to judge as replacements (updates/plan.ts). Replaced memories are history:
    // nothing merges into them or replaces them again.
    k: detecting ? UPDATE_CANDIDATES : 1,
    minSimilarity: detecting ? UPDATE_MIN_SIMILARITY : DEDUP_THRESHOLD,
    where: isCurrent(memories.id, memories.occurredAt),
    columns: sql`m.id, m.content, m.tags, m.importance, m.metadata, m.pinned, m.immutable,
      m.expires_at, m.updated_at::text AS updated_at, m.session_id, m.agent_id,
      m.occurred_at`,
  });
  const { grant } = ctx;
  const writable = named.length > 0 ? sql`, ${namedHeads(ctx, named)} AS writable` : sql``;
  const keyed = keys.some((k) => k !== null)
    ? sql`, ${keyedCandidates(ctx.userId, first, namespaces, keys)} AS keyed`
    : sql``;
  return sql`SELECT
    (SELECT coalesce(json_agg(n), '[]') FROM (${nearest}) n) AS nearest,
    ${readVersions(ctx.userId, batchNamespaces)} AS versions
    ${grant ? sql`, ${permissionsOf({ userId: ctx.userId, grant }, batchNamespaces)} AS permissions` : sql``}
    ${writable} ${keyed}`;
}
