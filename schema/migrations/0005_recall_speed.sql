DROP INDEX "memories_user_created_idx";--> statement-breakpoint
DROP INDEX "memories_user_access_idx";--> statement-breakpoint
CREATE INDEX "memories_user_live_idx" ON "memories" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"expires_at") WHERE "memories"."deleted_at" IS NULL;--> statement-breakpoint
-- Recall counts an access on every memory it returns (access_count, accessed_at). With room
-- left on each page and no index on those columns, that update is HOT: no index entries,
-- above all no HNSW re-insertion (measured ~4.5 ms a row without). Applies to pages written
-- from now on.
ALTER TABLE "memories" SET (fillfactor = 70);--> statement-breakpoint
-- Recall is one statement of several CTEs whose cost estimates cross jit_above_cost at 100k
-- memories; JIT compilation then took ~70 ms of a 20 ms query. The block swallows the error
-- where a role may not change the setting.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'jit not turned off: %', SQLERRM;
END
$$;
