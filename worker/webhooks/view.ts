/** A webhook as the API answers it (never with its secret, which registration alone shows). */

/** A webhooks row with its owner's wallet, as the statements of this folder read it. */
export interface WebhookRow extends Record<string, unknown> {
  id: string;
  url: string;
  owner: string;
  events: string[] | string;
  namespace: string | null;
  include_content: boolean;
  cursor: number | string;
  failing_since: string | Date | null;
  disabled_at: string | Date | null;
  disabled_reason: string | null;
  created_at: string | Date;
}

export interface WebhookView {
  id: string;
  url: string;
  owner: string;
  events: string[];
  namespace: string | null;
  include_content: boolean;
  status: "active" | "failing" | "disabled";
  failing_since: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  cursor: string;
  created_at: string;
}

/** The columns a WebhookRow is read with (`w` the webhooks row, `o` its owner's users row). */
export const WEBHOOK_COLUMNS = `w.id, w.url, o.wallet AS owner, w.events, w.namespace,
  w.include_content, w.cursor, w.failing_since, w.disabled_at, w.disabled_reason, w.created_at`;

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** A text[] as the driver gives it: an array, or Postgres's `{a,b}` text from a raw query. */
export function textArray(v: string[] | string): string[] {
  if (Array.isArray(v)) return v;
  const inner = v.replace(/^\{|\}$/g, "");
  return inner === "" ? [] : inner.split(",").map((s) => s.replace(/^"|"$/g, ""));
}

export function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    owner: row.owner,
    events: textArray(row.events),
    namespace: row.namespace,
    include_content: row.include_content,
    status: row.disabled_at ? "disabled" : row.failing_since ? "failing" : "active",
    failing_since: iso(row.failing_since),
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    cursor: String(row.cursor),
    created_at: iso(row.created_at) as string,
  };
}
