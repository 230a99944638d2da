-- Recall filters HNSW results by wallet and by the caller's filters. pgvector ≥ 0.8 can keep
-- scanning the index until LIMIT rows pass those filters (iterative scans); without it a
-- filtered query may return fewer rows than asked. Set it for every new session of this
-- database; older pgvector versions ignore it (the block swallows the error).
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET hnsw.iterative_scan = relaxed_order', current_database());
  EXECUTE format('ALTER DATABASE %I SET hnsw.ef_search = 100', current_database());
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'hnsw.iterative_scan not set: %', SQLERRM;
END
$$;
