/** CSV and Markdown renderings of exported memories (pure, unit-tested). */
export interface ExportedMemory {
  id: string;
  namespace: string;
  content: string;
  metadata: Record<string, unknown>;
  tags: string[];
  importance: number;
  memory_type: string;
  session_id: string | null;
  agent_id: string | null;
  pinned: boolean;
  immutable: boolean;
  expires_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  access_count: number;
  deleted_at?: string | null;
}

const CSV_COLUMNS = [
  "id",
  "namespace",
  "content",
  "memory_type",
  "importance",
  "tags",
  "session_id",
  "agent_id",
  "pinned",
  "immutable",
  "expires_at",
  "created_at",
  "updated_at",
  "access_count",
  "deleted_at",
  "metadata",
] as const;

/** RFC 4180 field: quoted when it holds a comma, quote or line break; quotes doubled. */
export function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  // A leading =, +, - or @ makes spreadsheets run the cell as a formula: neutralise it.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function toCsv(rows: ExportedMemory[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const row of rows) {
    lines.push(
      CSV_COLUMNS.map((col) => {
        if (col === "tags") return csvField(row.tags.join(";"));
        return csvField(row[col] ?? null);
      }).join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

export function toMarkdown(rows: ExportedMemory[]): string {
  const out = ["# Memory export", "", `${rows.length} memories.`, ""];
  const byNamespace = new Map<string, ExportedMemory[]>();
  for (const row of rows) {
    const list = byNamespace.get(row.namespace) ?? [];
    list.push(row);
    byNamespace.set(row.namespace, list);
  }
  for (const [namespace, list] of byNamespace) {
    out.push(`## ${namespace}`, "");
    for (const m of list) {
      const flags = [
        m.pinned ? "pinned" : null,
        m.immutable ? "immutable" : null,
        m.deleted_at ? "deleted" : null,
      ]
        .filter(Boolean)
        .join(", ");
      out.push(
        `### ${m.memory_type} · importance ${m.importance}${flags ? ` · ${flags}` : ""}`,
        "",
      );
      out.push(m.content.trim(), "");
      const meta = [
        `- id: \`${m.id}\``,
        `- created: ${m.created_at ?? ""}`,
        m.tags.length > 0 ? `- tags: ${m.tags.map((t) => `\`${t}\``).join(", ")}` : null,
        m.session_id ? `- session: ${m.session_id}` : null,
        m.agent_id ? `- agent: ${m.agent_id}` : null,
        m.expires_at ? `- expires: ${m.expires_at}` : null,
      ].filter((l): l is string => l !== null);
      out.push(...meta, "");
    }
  }
  return out.join("\n");
}
