CREATE TABLE "memory_counts" (
	"user_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"live" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "memory_counts_user_idx" ON "memory_counts" USING btree ("user_id","namespace");--> statement-breakpoint
CREATE INDEX "memories_user_expiring_idx" ON "memories" USING btree ("user_id","expires_at") WHERE "memories"."deleted_at" IS NULL AND "memories"."expires_at" IS NOT NULL;--> statement-breakpoint
-- memory_counts follows every write of memories, in the writing transaction (schema/tables.ts
-- says why rows are appended): statement triggers with transition tables, so a batch of 100
-- rows or a bulk delete appends one row per (wallet, namespace), not one per memory.
CREATE FUNCTION "memory_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_counts (user_id, namespace, live)
  SELECT user_id, namespace, count(*) FROM new_rows WHERE deleted_at IS NULL
  GROUP BY user_id, namespace;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An update changes a count only when it soft-deletes a row or moves it to another namespace;
-- the others (recall's access counts, the indexer's flag, merges) append nothing.
CREATE FUNCTION "memory_counts_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_counts (user_id, namespace, live)
  SELECT user_id, namespace, sum(d) FROM (
    SELECT user_id, namespace, -1 AS d FROM old_rows WHERE deleted_at IS NULL
    UNION ALL
    SELECT user_id, namespace, 1 AS d FROM new_rows WHERE deleted_at IS NULL
  ) changes
  GROUP BY user_id, namespace HAVING sum(d) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Rows are deleted only with their wallet (ON DELETE CASCADE): the sums return to 0.
CREATE FUNCTION "memory_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_counts (user_id, namespace, live)
  SELECT user_id, namespace, -count(*) FROM old_rows WHERE deleted_at IS NULL
  GROUP BY user_id, namespace;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "memories_count_insert" AFTER INSERT ON "memories"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "memory_counts_after_insert"();--> statement-breakpoint
CREATE TRIGGER "memories_count_update" AFTER UPDATE ON "memories"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "memory_counts_after_update"();--> statement-breakpoint
CREATE TRIGGER "memories_count_delete" AFTER DELETE ON "memories"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "memory_counts_after_delete"();--> statement-breakpoint
-- The rows written before this migration. The triggers exist already, and the migration's
-- transaction holds their lock on memories until it commits, so no write falls between the two.
INSERT INTO "memory_counts" (user_id, namespace, live)
SELECT user_id, namespace, count(*) FROM "memories" WHERE deleted_at IS NULL
GROUP BY user_id, namespace;
