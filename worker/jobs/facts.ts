/**
 * Idempotent storing of a job's facts: every fact a job stores is recorded in job_facts under
 * (job, SHA-256 of its content), in the same transaction as the memory itself. A retried job
 * (after a provider error, a crash, a duplicate delivery) skips the facts already recorded
 * and reports them as the attempt that stored them did, so it never stores a fact twice and
 * its result matches an uninterrupted run.
 *
 * Facts are stored STORE_BATCH at a time, as extract does, each batch in one transaction
 * that first takes a per-job advisory lock and then reads the batch's records, so two
 * deliveries of one job running at once cannot both store a fact either. (storeFacts embeds
 * the batch inside that transaction: fine off the request path.)
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { jobFacts } from "../../schema/tables";
import type { Tx } from "../db/client";
import { type FactStore, storeFacts } from "../ingest/extract";
import type { Fact } from "../language-model";
import { sha256Hex } from "../lib/hash";
import type { StoredItem } from "../memories/store";
import { inTransaction } from "./context";

const STORE_BATCH = 100;

interface HashedFact {
  fact: Fact;
  hash: string;
}

/** A FactStore (ingest/extract.ts) that records what job `jobId` stored. */
export function jobFactStore(jobId: string): FactStore {
  return async (ctx, facts, scope) => {
    const hashed = await Promise.all(
      facts.map(
        async (fact): Promise<HashedFact> => ({ fact, hash: await sha256Hex(fact.content) }),
      ),
    );
    const items: StoredItem[] = [];
    let tokensUsed = 0;
    let modelTokens = 0;
    for (let start = 0; start < hashed.length; start += STORE_BATCH) {
      const batch = hashed.slice(start, start + STORE_BATCH);
      const stored = await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`job:${jobId}`}, 0))`);
        const byHash = await recorded(tx, jobId, batch);
        // Unique by hash as well: extractAll keeps one fact per text, but a primary-key clash
        // must not be how that assumption is found wrong.
        const pending = [...new Map(batch.map((b) => [b.hash, b])).values()].filter(
          (b) => !byHash.has(b.hash),
        );
        if (pending.length > 0) {
          const fresh = await storeFacts(
            inTransaction(ctx, tx),
            pending.map((p) => p.fact),
            scope,
          );
          tokensUsed += fresh.tokensUsed;
          modelTokens += fresh.modelTokens;
          const rows = pending.map((p, i) => {
            const item = fresh.items[i];
            if (!item) throw new Error("storeFacts returned fewer items than facts");
            byHash.set(p.hash, item);
            return {
              jobId,
              contentHash: p.hash,
              memoryId: item.id,
              deduplicated: item.deduplicated,
            };
          });
          await tx.insert(jobFacts).values(rows);
        }
        return batch.map((b) => {
          const item = byHash.get(b.hash);
          if (!item) throw new Error("a fact was neither recorded nor stored");
          return item;
        });
      });
      items.push(...stored);
    }
    return { items, tokensUsed, modelTokens };
  };
}

/** The facts of `batch` that job `jobId` already stored, by content hash. */
async function recorded(
  tx: Tx,
  jobId: string,
  batch: HashedFact[],
): Promise<Map<string, StoredItem>> {
  const rows = await tx
    .select({ hash: jobFacts.contentHash, id: jobFacts.memoryId, dedup: jobFacts.deduplicated })
    .from(jobFacts)
    .where(
      and(
        eq(jobFacts.jobId, jobId),
        inArray(
          jobFacts.contentHash,
          batch.map((b) => b.hash),
        ),
      ),
    );
  return new Map(rows.map((r) => [r.hash, { id: r.id, deduplicated: r.dedup }]));
}
