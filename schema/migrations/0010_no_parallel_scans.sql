-- No parallel scans of memories. Every query of the service reads one wallet's rows, and a
-- parallel plan pays for starting its workers before it reads anything: at 100,000 memories
-- among 1.1 million, recall's scan of the wallet's backlog (rows not in the HNSW index yet)
-- was planned as a Parallel Bitmap Heap Scan under a Gather Merge, because the estimate took
-- the backlog of the table's small wallets (never indexed) for this wallet's: 68,000 rows
-- expected, 0 found, and 12 of the statement's 19 ms spent starting workers. Without it the
-- statement executes in 6.5 ms. Many small requests at once also want the cores for
-- themselves, not two workers each.
ALTER TABLE "memories" SET (parallel_workers = 0);
