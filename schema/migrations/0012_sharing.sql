-- Shared memory (docs/sharing.md): an owner's read or write grant of one namespace to another
-- wallet, and the writer of every memory and history entry. Rows written before sharing were
-- written by their owner, so the backfill takes the owner's wallet.
CREATE TABLE "memory_grants" (
	"owner_id" uuid NOT NULL,
	"grantee" text NOT NULL,
	"namespace" text NOT NULL,
	"permission" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_grants_owner_id_grantee_namespace_pk" PRIMARY KEY("owner_id","grantee","namespace"),
	CONSTRAINT "memory_grants_permission_check" CHECK ("memory_grants"."permission" IN ('read', 'write'))
);
--> statement-breakpoint
ALTER TABLE "memory_grants" ADD CONSTRAINT "memory_grants_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_grants_grantee_idx" ON "memory_grants" USING btree ("grantee");--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "created_by" text;--> statement-breakpoint
UPDATE "memories" m SET "created_by" = u."wallet" FROM "users" u WHERE u."id" = m."user_id";--> statement-breakpoint
ALTER TABLE "memories" ALTER COLUMN "created_by" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "memory_history" ADD COLUMN "created_by" text;--> statement-breakpoint
UPDATE "memory_history" h SET "created_by" = u."wallet" FROM "users" u WHERE u."id" = h."user_id";--> statement-breakpoint
ALTER TABLE "memory_history" ALTER COLUMN "created_by" SET NOT NULL;
