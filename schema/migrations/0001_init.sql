CREATE TABLE "memories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"namespace" text DEFAULT 'default' NOT NULL,
	"content" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"importance" real DEFAULT 0.5 NOT NULL,
	"memory_type" text DEFAULT 'general' NOT NULL,
	"session_id" text,
	"agent_id" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"immutable" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accessed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"access_count" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	"embedding" vector(384),
	"embedding_model" text,
	"content_hash" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "content")) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"memory_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"target_id" uuid NOT NULL,
	"relation_type" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_wallet_unique" UNIQUE("wallet")
);
--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_history" ADD CONSTRAINT "memory_history_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_history" ADD CONSTRAINT "memory_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relations" ADD CONSTRAINT "relations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relations" ADD CONSTRAINT "relations_source_id_memories_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relations" ADD CONSTRAINT "relations_target_id_memories_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memories_user_created_idx" ON "memories" USING btree ("user_id","created_at" DESC NULLS LAST) WHERE "memories"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "memories_user_namespace_idx" ON "memories" USING btree ("user_id","namespace") WHERE "memories"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "memories_user_hash_idx" ON "memories" USING btree ("user_id","namespace","content_hash");--> statement-breakpoint
CREATE INDEX "memories_tags_idx" ON "memories" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "memories_search_idx" ON "memories" USING gin ("search");--> statement-breakpoint
CREATE INDEX "memories_embedding_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops) WITH (m=16,ef_construction=64) WHERE "memories"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "memory_history_memory_idx" ON "memory_history" USING btree ("memory_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "relations_edge_unique" ON "relations" USING btree ("source_id","target_id","relation_type");--> statement-breakpoint
CREATE INDEX "relations_source_idx" ON "relations" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "relations_target_idx" ON "relations" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "relations_user_idx" ON "relations" USING btree ("user_id");