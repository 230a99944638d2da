/** Test data that the Worker's tests and the Node-side tests share (no Worker imports here). */
import { expect } from "vitest";

/** The fields a stored memory has when the store request gives none of them (the spec's defaults). */
export const MEMORY_DEFAULTS = {
  namespace: "default",
  metadata: {},
  tags: [],
  importance: 0.5,
  memory_type: "general",
  session_id: null,
  agent_id: null,
  pinned: false,
  immutable: false,
  expires_at: null,
};

/** A memory that replaces nothing and is current (docs/knowledge-updates.md). */
export const CURRENT_FACT = {
  supersedes: [],
  superseded_by: null,
  occurred_at: expect.any(String),
};

/**
 * The fields of a memory summary, sorted: what a keyword search result and a memory used by
 * POST /v1/context show at least.
 */
export const SUMMARY_KEYS = [
  "content",
  "created_at",
  "id",
  "importance",
  "memory_type",
  "namespace",
  "tags",
];

/** The header line of a CSV export: the spec's columns, in its order. */
export const CSV_HEADER =
  "id,namespace,content,memory_type,importance,tags,session_id,agent_id,pinned,immutable," +
  "expires_at,created_at,updated_at,access_count,deleted_at,metadata";

/** Where the suite's own Worker would be paid: its default settings, USDC on Base. */
export const DEFAULT_PAYMENT_CHAIN = {
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
};

/** The 402 body of a 0.005 USDC call once the free allowance is used, priced on `chain`. */
export function allowanceUsedError(chain: { network: string; asset: string }) {
  return {
    error: {
      code: "PAYMENT_REQUIRED",
      message: "Free allowance used: pay per request with x402",
      details: {
        price: {
          amount: "5000",
          usd: "0.005",
          asset: chain.asset,
          symbol: "USDC",
          decimals: 6,
          network: chain.network,
        },
      },
      request_id: expect.any(String),
    },
  };
}
