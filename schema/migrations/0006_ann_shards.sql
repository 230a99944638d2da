DROP INDEX "memories_embedding_idx";--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "shard" smallint GENERATED ALWAYS AS ((get_byte(uuid_send("user_id"), 0) % 32)::smallint) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "ann" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A memory row is ~2.2 KB with its vector, over the 2 KB at which Postgres moves the widest
-- value out of line, and pgvector's type defaults to EXTERNAL storage: every distance computed
-- outside the HNSW index (exact scans, deduplication, recall's scoring) then fetched the
-- vector from the TOAST table. 100 deduplication probes into 2,000 memories: 225-297 ms so,
-- 37-42 ms with the vector kept in the row (MAIN: other values move out first). It applies
-- to rows written from now on; VACUUM FULL (or pg_repack) moves older rows back in.
ALTER TABLE "memories" ALTER COLUMN "embedding" SET STORAGE MAIN;--> statement-breakpoint
-- Rows of wallets too large for exact scans (worker/memories/ann.ts, EXACT_SCAN_MAX) go into
-- the new indexes at once, before they are built (a bulk build, not row by row); the rest
-- stay exact-scanned until their wallet grows, when the indexer takes them.
UPDATE "memories" SET "ann" = true
WHERE "deleted_at" IS NULL AND "user_id" IN (
  SELECT "user_id" FROM "memories" WHERE "deleted_at" IS NULL GROUP BY "user_id" HAVING count(*) > 2000
);--> statement-breakpoint
CREATE INDEX "memories_embedding_s0_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 0;--> statement-breakpoint
CREATE INDEX "memories_embedding_s1_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 1;--> statement-breakpoint
CREATE INDEX "memories_embedding_s2_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 2;--> statement-breakpoint
CREATE INDEX "memories_embedding_s3_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 3;--> statement-breakpoint
CREATE INDEX "memories_embedding_s4_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 4;--> statement-breakpoint
CREATE INDEX "memories_embedding_s5_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 5;--> statement-breakpoint
CREATE INDEX "memories_embedding_s6_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 6;--> statement-breakpoint
CREATE INDEX "memories_embedding_s7_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 7;--> statement-breakpoint
CREATE INDEX "memories_embedding_s8_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 8;--> statement-breakpoint
CREATE INDEX "memories_embedding_s9_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 9;--> statement-breakpoint
CREATE INDEX "memories_embedding_s10_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 10;--> statement-breakpoint
CREATE INDEX "memories_embedding_s11_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 11;--> statement-breakpoint
CREATE INDEX "memories_embedding_s12_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 12;--> statement-breakpoint
CREATE INDEX "memories_embedding_s13_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 13;--> statement-breakpoint
CREATE INDEX "memories_embedding_s14_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 14;--> statement-breakpoint
CREATE INDEX "memories_embedding_s15_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 15;--> statement-breakpoint
CREATE INDEX "memories_embedding_s16_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 16;--> statement-breakpoint
CREATE INDEX "memories_embedding_s17_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 17;--> statement-breakpoint
CREATE INDEX "memories_embedding_s18_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 18;--> statement-breakpoint
CREATE INDEX "memories_embedding_s19_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 19;--> statement-breakpoint
CREATE INDEX "memories_embedding_s20_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 20;--> statement-breakpoint
CREATE INDEX "memories_embedding_s21_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 21;--> statement-breakpoint
CREATE INDEX "memories_embedding_s22_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 22;--> statement-breakpoint
CREATE INDEX "memories_embedding_s23_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 23;--> statement-breakpoint
CREATE INDEX "memories_embedding_s24_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 24;--> statement-breakpoint
CREATE INDEX "memories_embedding_s25_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 25;--> statement-breakpoint
CREATE INDEX "memories_embedding_s26_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 26;--> statement-breakpoint
CREATE INDEX "memories_embedding_s27_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 27;--> statement-breakpoint
CREATE INDEX "memories_embedding_s28_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 28;--> statement-breakpoint
CREATE INDEX "memories_embedding_s29_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 29;--> statement-breakpoint
CREATE INDEX "memories_embedding_s30_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 30;--> statement-breakpoint
CREATE INDEX "memories_embedding_s31_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL AND "memories"."ann" AND "memories"."shard" = 31;--> statement-breakpoint
CREATE INDEX "memories_ann_backlog_idx" ON "memories" USING btree ("user_id","namespace") WHERE "memories"."deleted_at" IS NULL AND NOT "memories"."ann";--> statement-breakpoint
-- A GIN index's pending list is scanned whole by every search until a vacuum merges it:
-- with the default 4 MB, keyword candidates took 20-40 ms after a burst of stores.
ALTER INDEX "memories_tags_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "memories_search_idx" SET (gin_pending_list_limit = 256);