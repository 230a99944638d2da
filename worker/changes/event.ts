/**
 * A change, as the feed (GET /v1/changes) and webhooks tell it (docs/changes.md). The rows are
 * memory_events (schema/tables.ts), written by migration 0014's triggers; this is their answer.
 */
import { z } from "@hono/zod-openapi";

/** Every kind of event, in the order docs/changes.md lists them. */
export const EVENT_KINDS = [
  "memory.stored",
  "memory.merged",
  "memory.updated",
  "memory.pinned",
  "memory.unpinned",
  "memory.deleted",
  "memory.restored",
  "memory.expired",
  "memory.moved_out",
  "memory.replaced",
  "relation.added",
  "relation.removed",
  "grant.given",
  "grant.changed",
  "grant.revoked",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const ChangeEvent = z
  .object({
    id: z.uuid().openapi({ description: "The event's id: a webhook's `webhook-id`" }),
    cursor: z.string().openapi({ description: "Its place in the feed: `since=` resumes after it" }),
    kind: z.enum(EVENT_KINDS),
    namespace: z.string(),
    memory_id: z.uuid().nullable(),
    created_by: z
      .string()
      .nullable()
      .openapi({ description: "The wallet that made the change (a grantee's, when it wrote)" }),
    at: z.string().openapi({ description: "When the change was made (ISO 8601)" }),
    fields: z
      .array(z.string())
      .optional()
      .openapi({ description: "memory.updated and memory.merged: the fields that changed" }),
    relation: z
      .object({
        id: z.uuid(),
        type: z.string(),
        source_id: z.uuid(),
        target_id: z.uuid(),
      })
      .optional(),
    superseded_by: z.uuid().optional().openapi({ description: "memory.replaced: by which memory" }),
    grant: z.object({ grantee: z.string(), permission: z.enum(["read", "write"]) }).optional(),
    expires_at: z.string().optional(),
    via: z
      .string()
      .optional()
      .openapi({ description: "What made it, when not a plain call: `consolidation`" }),
    memory_type: z.string().optional(),
    content: z.string().nullable().optional().openapi({
      description:
        "With include_content: the memory's content now (null once it left the event's namespace)",
    }),
  })
  .openapi("ChangeEvent");
export type ChangeEvent = z.infer<typeof ChangeEvent>;

/** A memory_events row as the feed's statement reads it. */
export interface EventRow {
  id: string;
  seq: number | string;
  kind: string;
  namespace: string;
  memory_id: string | null;
  created_by: string | null;
  at: string;
  data: Record<string, unknown> | null;
  content?: string | null;
}

/** The answer of one row: its data's keys beside the common ones. */
export function eventAnswer(row: EventRow, includeContent: boolean): ChangeEvent {
  const data = row.data ?? {};
  const out: Record<string, unknown> = {
    id: row.id,
    cursor: String(row.seq),
    kind: row.kind,
    namespace: row.namespace,
    memory_id: row.memory_id,
    created_by: row.created_by,
    at: new Date(row.at).toISOString(),
  };
  for (const key of ["fields", "relation", "superseded_by", "grant", "via", "memory_type"]) {
    if (data[key] !== undefined) out[key] = data[key];
  }
  if (typeof data.expires_at === "string") {
    out.expires_at = new Date(Number(data.expires_at) * 1000).toISOString();
  }
  if (includeContent && row.memory_id) out.content = row.content ?? null;
  return out as ChangeEvent;
}
