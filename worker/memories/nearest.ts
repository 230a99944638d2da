/**
 * When at most this many memories are in scope (the caller's, after filters), nearest
 * vectors are found by an exact scan — `ORDER BY (embedding <=> v) + 0`, which the HNSW
 * index cannot serve, so the planner reads the scope through a btree and sorts — and above
 * it through the HNSW index with iterative scans. The HNSW index is shared by all wallets: a
 * small scope inside a large table is where a post-filtered approximate scan is slowest (it
 * walks other wallets' vectors looking for the caller's) and least complete, while an exact
 * scan of a few thousand rows takes a few milliseconds and misses nothing.
 * Measured (PostgreSQL 15, pgvector 0.8): 100 dedup probes into a 1,000-memory wallet in a
 * 21,000-row table took 1,510 ms through HNSW and ~110 ms exact.
 */
export const EXACT_SCAN_MAX = 2000;
