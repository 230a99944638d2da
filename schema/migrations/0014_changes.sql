CREATE TABLE "event_counters" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_events" (
	"user_id" uuid NOT NULL,
	"seq" bigint,
	"ord" bigint GENERATED ALWAYS AS IDENTITY (sequence name "memory_events_ord_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"namespace" text NOT NULL,
	"memory_id" uuid,
	"created_by" text,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"txid" text DEFAULT (pg_current_xact_id())::text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"webhook_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"attempt" integer NOT NULL,
	"status" integer,
	"ok" boolean NOT NULL,
	"error" text,
	"latency_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] DEFAULT '{}'::text[] NOT NULL,
	"namespace" text,
	"include_content" boolean DEFAULT false NOT NULL,
	"secret" text NOT NULL,
	"cursor" bigint DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "memory_events_seq_idx" ON "memory_events" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "memory_events_namespace_idx" ON "memory_events" USING btree ("user_id","namespace","seq");--> statement-breakpoint
CREATE INDEX "memory_events_pending_idx" ON "memory_events" USING btree ("txid") WHERE "memory_events"."seq" IS NULL;--> statement-breakpoint
CREATE INDEX "memory_events_at_idx" ON "memory_events" USING btree ("user_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "memory_events_expired_idx" ON "memory_events" USING btree ("memory_id",("data"->>'expires_at')) WHERE "memory_events"."kind" = 'memory.expired';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at");--> statement-breakpoint
CREATE INDEX "webhooks_owner_idx" ON "webhooks" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "webhooks_user_idx" ON "webhooks" USING btree ("user_id");--> statement-breakpoint
-- The change feed's numbering (schema/tables.ts, memory_events; docs/changes.md). A change's
-- events are written with seq NULL by the triggers below, and each (transaction, wallet) that
-- writes any leaves one row in event_pending. At commit, a deferred trigger on that row gives
-- the transaction's events of the wallet its next numbers, and removes the row. The counter row
-- it updates stays locked until the commit is done, so the next transaction of the wallet
-- numbers after this one is visible: numbers follow commit order, and a reader who sees N sees
-- all below N. Taken at commit, after every row lock of the transaction, it closes no cycle of
-- waits. (A deferred trigger has no statement form: on memory_events itself it ran once per
-- event, and a 6,000-section import paid 6,000 calls at its commit.)
CREATE TABLE "event_pending" (
	"txid" text NOT NULL,
	"user_id" uuid NOT NULL,
	PRIMARY KEY ("txid", "user_id")
);--> statement-breakpoint
CREATE FUNCTION "memory_events_pending"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_pending (txid, user_id)
  SELECT DISTINCT txid, user_id FROM new_rows
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "memory_events_pending" AFTER INSERT ON "memory_events"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "memory_events_pending"();--> statement-breakpoint
CREATE FUNCTION "memory_events_number"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  top bigint;
BEGIN
  DELETE FROM event_pending WHERE txid = NEW.txid AND user_id = NEW.user_id;
  SELECT count(*) INTO n FROM memory_events
   WHERE seq IS NULL AND txid = NEW.txid AND user_id = NEW.user_id;
  IF n = 0 THEN RETURN NULL; END IF;
  INSERT INTO event_counters AS c (user_id, seq) VALUES (NEW.user_id, n)
  ON CONFLICT (user_id) DO UPDATE SET seq = c.seq + n
  RETURNING c.seq INTO top;
  -- By ctid: the rows just read, each found directly (a join on ord had no index to use).
  UPDATE memory_events e SET seq = top - n + o.rn
  FROM (SELECT ctid AS row, row_number() OVER (ORDER BY ord) AS rn FROM memory_events
         WHERE seq IS NULL AND txid = NEW.txid AND user_id = NEW.user_id) o
  WHERE e.ctid = o.row;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "event_pending_number" AFTER INSERT ON "event_pending"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "memory_events_number"();--> statement-breakpoint
-- Who made a change, and how: a write statement may say it with
-- set_config('memory.writer', wallet, true) (worker/changes/writer.ts), and a deduplicating
-- merge or a consolidation with set_config('memory.change', 'merge' | 'consolidation', true).
-- Unsaid, the writer is the memory's own created_by.
-- A batch's merges and new rows are one statement: 'merge' is the updates', not the inserts'.
CREATE FUNCTION "memory_events_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change text := nullif(nullif(current_setting('memory.change', true), ''), 'merge');
BEGIN
  INSERT INTO memory_events (user_id, kind, namespace, memory_id, created_by, data)
  SELECT user_id, 'memory.stored', namespace, id, created_by,
         jsonb_build_object('memory_type', memory_type)
           || CASE WHEN change IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('via', change) END
  FROM new_rows WHERE deleted_at IS NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An update is a change when it deletes, restores, merges, or changes a field a caller sees;
-- recall's access counts, the indexer's flag and the embedding alone are not.
CREATE FUNCTION "memory_events_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer text := nullif(current_setting('memory.writer', true), '');
  change text := nullif(current_setting('memory.change', true), '');
BEGIN
  -- A memory moved to another namespace leaves the old one: its watchers are told it left
  -- (and not where to), before the new namespace's event.
  INSERT INTO memory_events (user_id, kind, namespace, memory_id, created_by, data)
  SELECT n.user_id, 'memory.moved_out', o.namespace, n.id, coalesce(writer, n.created_by), '{}'::jsonb
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE o.namespace <> n.namespace AND n.deleted_at IS NULL AND o.deleted_at IS NULL;
  INSERT INTO memory_events (user_id, kind, namespace, memory_id, created_by, data)
  SELECT user_id, kind, namespace, id, by, data FROM (
    SELECT n.user_id, n.id, coalesce(writer, n.created_by) AS by, f.fields,
      CASE
        WHEN o.deleted_at IS NULL AND n.deleted_at IS NOT NULL THEN 'memory.deleted'
        WHEN o.deleted_at IS NOT NULL AND n.deleted_at IS NULL THEN 'memory.restored'
        WHEN n.deleted_at IS NOT NULL THEN NULL
        WHEN change = 'merge' THEN 'memory.merged'
        WHEN f.fields = ARRAY['pinned'] THEN
          CASE WHEN n.pinned THEN 'memory.pinned' ELSE 'memory.unpinned' END
        WHEN cardinality(f.fields) > 0 THEN 'memory.updated'
      END AS kind,
      n.namespace,
      CASE WHEN n.deleted_at IS NULL AND o.deleted_at IS NULL
        THEN jsonb_build_object('fields', to_jsonb(f.fields)) ELSE '{}'::jsonb END
        || CASE WHEN change IS NULL OR change = 'merge' THEN '{}'::jsonb
                ELSE jsonb_build_object('via', change) END AS data,
      o.namespace AS old_namespace
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT ARRAY(SELECT v.f FROM (VALUES
        ('content', o.content IS DISTINCT FROM n.content),
        ('metadata', o.metadata IS DISTINCT FROM n.metadata),
        ('tags', o.tags IS DISTINCT FROM n.tags),
        ('importance', o.importance IS DISTINCT FROM n.importance),
        ('memory_type', o.memory_type IS DISTINCT FROM n.memory_type),
        ('namespace', o.namespace IS DISTINCT FROM n.namespace),
        ('session_id', o.session_id IS DISTINCT FROM n.session_id),
        ('agent_id', o.agent_id IS DISTINCT FROM n.agent_id),
        ('pinned', o.pinned IS DISTINCT FROM n.pinned),
        ('immutable', o.immutable IS DISTINCT FROM n.immutable),
        ('expires_at', o.expires_at IS DISTINCT FROM n.expires_at)) v(f, changed)
      WHERE v.changed) AS fields) f
  ) c
  WHERE kind IS NOT NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "memories_events_insert" AFTER INSERT ON "memories"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "memory_events_after_insert"();--> statement-breakpoint
CREATE TRIGGER "memories_events_update" AFTER UPDATE ON "memories"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "memory_events_after_update"();--> statement-breakpoint
-- A relation added or removed is an event of its source memory's namespace; a `supersedes`
-- added also tells the replaced memory's namespace that it was replaced. Relations removed
-- with their memories (a wallet's deletion) find no memory and tell nothing.
CREATE FUNCTION "relation_events_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer text := nullif(current_setting('memory.writer', true), '');
BEGIN
  INSERT INTO memory_events (user_id, kind, namespace, memory_id, created_by, data)
  SELECT r.user_id, e.kind, e.namespace, e.memory_id, coalesce(writer, s.created_by), e.data
  FROM new_rows r
  JOIN memories s ON s.id = r.source_id
  JOIN memories t ON t.id = r.target_id
  CROSS JOIN LATERAL (VALUES
    (1, 'relation.added', s.namespace, r.source_id, jsonb_build_object('relation', jsonb_build_object(
      'id', r.id, 'type', r.relation_type, 'source_id', r.source_id, 'target_id', r.target_id))),
    (2, CASE WHEN r.relation_type = 'supersedes' THEN 'memory.replaced' END, t.namespace, r.target_id,
      jsonb_build_object('superseded_by', r.source_id))
  ) e(n, kind, namespace, memory_id, data)
  WHERE e.kind IS NOT NULL
  ORDER BY r.id, e.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "relation_events_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer text := nullif(current_setting('memory.writer', true), '');
BEGIN
  INSERT INTO memory_events (user_id, kind, namespace, memory_id, created_by, data)
  SELECT r.user_id, 'relation.removed', s.namespace, r.source_id, coalesce(writer, s.created_by),
    jsonb_build_object('relation', jsonb_build_object(
      'id', r.id, 'type', r.relation_type, 'source_id', r.source_id, 'target_id', r.target_id))
  FROM old_rows r JOIN memories s ON s.id = r.source_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "relations_events_insert" AFTER INSERT ON "relations"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "relation_events_after_insert"();--> statement-breakpoint
CREATE TRIGGER "relations_events_delete" AFTER DELETE ON "relations"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "relation_events_after_delete"();--> statement-breakpoint
-- Grants given, changed and revoked are events of the owner, in the granted namespace.
CREATE FUNCTION "grant_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO memory_events (user_id, kind, namespace, created_by, data)
    SELECT g.owner_id, 'grant.given', g.namespace, u.wallet,
      jsonb_build_object('grant', jsonb_build_object('grantee', g.grantee, 'permission', g.permission))
    FROM new_rows g JOIN users u ON u.id = g.owner_id;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO memory_events (user_id, kind, namespace, created_by, data)
    SELECT g.owner_id, 'grant.changed', g.namespace, u.wallet,
      jsonb_build_object('grant', jsonb_build_object('grantee', g.grantee, 'permission', g.permission))
    FROM new_rows g JOIN old_rows o USING (owner_id, grantee, namespace)
    JOIN users u ON u.id = g.owner_id
    WHERE o.permission <> g.permission;
  ELSE
    INSERT INTO memory_events (user_id, kind, namespace, created_by, data)
    SELECT g.owner_id, 'grant.revoked', g.namespace, u.wallet,
      jsonb_build_object('grant', jsonb_build_object('grantee', g.grantee, 'permission', g.permission))
    FROM old_rows g JOIN users u ON u.id = g.owner_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "memory_grants_events_insert" AFTER INSERT ON "memory_grants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "grant_events"();--> statement-breakpoint
CREATE TRIGGER "memory_grants_events_update" AFTER UPDATE ON "memory_grants"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "grant_events"();--> statement-breakpoint
CREATE TRIGGER "memory_grants_events_delete" AFTER DELETE ON "memory_grants"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "grant_events"();
