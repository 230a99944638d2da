-- A write counter per (wallet, namespace) (schema/tables.ts, namespaceVersions): a store reads
-- it with its duplicate probe and raises it in its one write statement only if unchanged, so
-- deduplication stays exact without a lock held across round trips. A new table: nothing to
-- backfill (a namespace without a row is at version 0).
CREATE TABLE "namespace_versions" (
	"user_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"version" integer NOT NULL,
	CONSTRAINT "namespace_versions_user_id_namespace_pk" PRIMARY KEY("user_id","namespace")
);
