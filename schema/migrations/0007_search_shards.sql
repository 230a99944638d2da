-- The full-text index split by wallet shard, like the HNSW graphs (worker/memories/shard.ts):
-- one global GIN index made every keyword query read its lexemes' posting lists across all
-- wallets (17-19 ms of a 36 ms recall at a million rows); a shard's lists are ~1/32 as long.
DROP INDEX "memories_search_idx";--> statement-breakpoint
CREATE INDEX "memories_search_s0_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 0;--> statement-breakpoint
CREATE INDEX "memories_search_s1_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 1;--> statement-breakpoint
CREATE INDEX "memories_search_s2_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 2;--> statement-breakpoint
CREATE INDEX "memories_search_s3_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 3;--> statement-breakpoint
CREATE INDEX "memories_search_s4_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 4;--> statement-breakpoint
CREATE INDEX "memories_search_s5_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 5;--> statement-breakpoint
CREATE INDEX "memories_search_s6_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 6;--> statement-breakpoint
CREATE INDEX "memories_search_s7_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 7;--> statement-breakpoint
CREATE INDEX "memories_search_s8_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 8;--> statement-breakpoint
CREATE INDEX "memories_search_s9_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 9;--> statement-breakpoint
CREATE INDEX "memories_search_s10_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 10;--> statement-breakpoint
CREATE INDEX "memories_search_s11_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 11;--> statement-breakpoint
CREATE INDEX "memories_search_s12_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 12;--> statement-breakpoint
CREATE INDEX "memories_search_s13_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 13;--> statement-breakpoint
CREATE INDEX "memories_search_s14_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 14;--> statement-breakpoint
CREATE INDEX "memories_search_s15_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 15;--> statement-breakpoint
CREATE INDEX "memories_search_s16_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 16;--> statement-breakpoint
CREATE INDEX "memories_search_s17_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 17;--> statement-breakpoint
CREATE INDEX "memories_search_s18_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 18;--> statement-breakpoint
CREATE INDEX "memories_search_s19_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 19;--> statement-breakpoint
CREATE INDEX "memories_search_s20_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 20;--> statement-breakpoint
CREATE INDEX "memories_search_s21_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 21;--> statement-breakpoint
CREATE INDEX "memories_search_s22_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 22;--> statement-breakpoint
CREATE INDEX "memories_search_s23_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 23;--> statement-breakpoint
CREATE INDEX "memories_search_s24_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 24;--> statement-breakpoint
CREATE INDEX "memories_search_s25_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 25;--> statement-breakpoint
CREATE INDEX "memories_search_s26_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 26;--> statement-breakpoint
CREATE INDEX "memories_search_s27_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 27;--> statement-breakpoint
CREATE INDEX "memories_search_s28_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 28;--> statement-breakpoint
CREATE INDEX "memories_search_s29_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 29;--> statement-breakpoint
CREATE INDEX "memories_search_s30_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 30;--> statement-breakpoint
CREATE INDEX "memories_search_s31_idx" ON "memories" USING gin ("search") WITH (gin_pending_list_limit=256) WHERE "memories"."deleted_at" IS NULL AND "memories"."shard" = 31;