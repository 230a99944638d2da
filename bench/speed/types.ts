/**
 * The speed part's options and results, shared by the run (index.ts) and its report
 * (report.ts), which would otherwise import each other.
 */
import type { Agreement } from "../ann/quality";
import type { Wallet } from "../lib/http-client";
import type { Table } from "../lib/report";
import type { LatencySummary } from "../lib/stats";
import type { SyntheticQuery } from "../lib/synthetic";
import type { EmbedServer } from "../systems/embed-server";
import type { BenchEmbedding } from "../systems/embedding";
import type { RecallRun, SizeRun } from "./mem0";

export interface SpeedOptions {
  sizes: number[];
  queries: number;
  /** Requests timed per operation (measure.ts: singleStores, inLargest). */
  calls: number;
  otherRows: number;
  otherLargeRows: number;
  apiSeedMax: number;
  mem0MaxSize: number;
  useMem0: boolean;
  embed?: EmbedServer;
  /** The run's embedder: the Worker's, so directly seeded rows carry the same model. */
  embedding: BenchEmbedding;
}

export interface SpeedOutcome {
  tables: Table[];
  json: Record<string, unknown>;
}

export interface OurSize extends SizeRun {
  wallet: Wallet;
  queries: SyntheticQuery[];
  recall?: RecallRun & { service_p95: number; embed_mean: number };
  agreement?: Agreement;
  plan?: string[];
}

/** Everything the report prints; also the JSON written to bench-results/. */
export interface SpeedResults {
  store: LatencySummary & { per_second: number };
  sizes: OurSize[];
  /** Index building: the bulk build, and how long the indexer took to catch up after seeding. */
  index: { build_seconds: number; catch_up_seconds: Record<number, number> };
  largest?: {
    size: number;
    store: LatencySummary;
    /** Memories of the batch store into the largest wallet, 100 a call. */
    batch_memories: number;
    batch_per_second: number;
    search: LatencySummary;
    list: LatencySummary;
  };
}
