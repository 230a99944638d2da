-- Knowledge updates (docs/knowledge-updates.md): when each fact was said or became true, and
-- an index of the `supersedes` relations by the memory they replace. Rows stored before this
-- became true when they were stored, so the backfill takes created_at.
ALTER TABLE "memories" ADD COLUMN "occurred_at" timestamp with time zone;--> statement-breakpoint
UPDATE "memories" SET "occurred_at" = "created_at";--> statement-breakpoint
ALTER TABLE "memories" ALTER COLUMN "occurred_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "memories" ALTER COLUMN "occurred_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "relations_supersedes_target_idx" ON "relations" USING btree ("target_id") WHERE "relations"."relation_type" = 'supersedes';
