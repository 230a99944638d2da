-- Knowledge updates (docs/knowledge-updates.md): when each fact was said or became true, the
-- attribute family a memory's words name (its replacement candidates' key), and an index of
-- the `supersedes` relations by the memory they replace. Rows stored before this became true
-- when they were stored, so the backfill takes created_at; their key stays null (a new fact
-- still meets them by similarity).
ALTER TABLE "memories" ADD COLUMN "occurred_at" timestamp with time zone;--> statement-breakpoint
UPDATE "memories" SET "occurred_at" = "created_at";--> statement-breakpoint
ALTER TABLE "memories" ALTER COLUMN "occurred_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "memories" ALTER COLUMN "occurred_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "fact_key" text;--> statement-breakpoint
CREATE INDEX "memories_fact_key_idx" ON "memories" USING btree ("user_id","namespace","fact_key","occurred_at" DESC NULLS LAST) WHERE "memories"."deleted_at" IS NULL AND "memories"."fact_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "relations_supersedes_target_idx" ON "relations" USING btree ("target_id") WHERE "relations"."relation_type" = 'supersedes';
