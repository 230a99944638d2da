import type { DomainContext } from "../context";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/hash";
import { mergeText } from "./dedup-rule";
import * as f from "./fields";

import type { NewMemory } from "./store-input";

/** A memory as the batch will leave it: an existing row being merged into, or a new one. */
export interface Draft {
  id: string;
  isNew: boolean;
  dirty: boolean;
  namespace: string;
  content: string;
  vector: number[];
  hash: string;
  tags: string[];
  metadata: Record<string, unknown>;
  importance: number;
  pinned: boolean;
  immutable: boolean;
  expiresAt: Date | null;
  input?: NewMemory;
  /** Its content joins two texts and is embedded once the batch is merged. */
  reembed?: boolean;
  /**
   * An existing row's updated_at as the probe read it (Postgres's text): the write changes
   * the row only if it is still that version (store-write.ts).
   */
  seenUpdatedAt?: string;
}

export type Nearest = {
  i: number;
  id: string;
  content: string;
  tags: string[];
  importance: number;
  metadata: Record<string, unknown>;
  pinned: boolean;
  immutable: boolean;
  expires_at: Date | string | null;
  updated_at: string;
  similarity: number;
  /** For replacement detection (updates/plan.ts): the memory's scope and time. */
  session_id: string | null;
  agent_id: string | null;
  occurred_at: string;
};

/** Embeds the drafts whose content joins two texts; returns the tokens it took. */
export async function embedJoined(ctx: DomainContext, drafts: Draft[]): Promise<number> {
  const joined = drafts.filter((d) => d.reembed);
  if (joined.length === 0) return 0;
  const { vectors, tokens } = await ctx.embedder.embed(joined.map((d) => d.content));
  for (const [i, d] of joined.entries()) {
    const vector = vectors[i];
    if (!vector) throw new ApiError("INTERNAL_ERROR", "Embedding count mismatch");
    d.vector = vector;
    d.hash = await sha256Hex(d.content);
  }
  return tokens;
}

export function existingDraft(row: Nearest, namespace: string): Draft {
  return {
    id: row.id,
    isNew: false,
    dirty: false,
    namespace,
    content: row.content,
    // Empty until a merge replaces the text: the stored vector is not fetched (see above).
    vector: [],
    hash: "",
    tags: row.tags,
    metadata: row.metadata,
    importance: Number(row.importance),
    pinned: row.pinned,
    immutable: row.immutable,
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    seenUpdatedAt: row.updated_at,
  };
}

/** Applies the merge rules of the header comment to a draft. */
export function merge(target: Draft, input: NewMemory, vector: number[], hash: string): void {
  if (target.immutable) return;
  const text = mergeText(target.content, input.content);
  if (text?.kind === "replaced") {
    target.content = input.content;
    target.vector = vector;
    target.hash = hash;
  } else if (text?.kind === "joined") {
    target.content = text.content;
    target.vector = [];
    target.reembed = true;
  }
  target.tags = f.mergeTags(target.tags, input.tags).slice(0, f.LIMITS.tags);
  const metadata = { ...target.metadata, ...input.metadata };
  if (f.byteLength(JSON.stringify(metadata)) <= f.LIMITS.metadataBytes) target.metadata = metadata;
  target.importance = Math.max(target.importance, input.importance);
  target.pinned = target.pinned || input.pinned;
  target.expiresAt =
    target.expiresAt && input.expiresAt
      ? new Date(Math.max(target.expiresAt.getTime(), input.expiresAt.getTime()))
      : null;
  target.dirty = true;
}
