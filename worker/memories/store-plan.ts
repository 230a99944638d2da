/**
 * What a store does with each item, decided in the Worker from the duplicate probe's answer
 * (store.ts): merge it into its nearest live memory, into a memory an earlier item of the batch
 * created or changed, or create a memory. The merge rules are merge.ts's and dedup-rule.ts's.
 */
import { mergeText } from "./dedup-rule";
import { type Draft, existingDraft, merge, type Nearest } from "./merge";
import type { NewMemory } from "./store-input";

export const DEDUP_THRESHOLD = 0.95;

export interface StoredItem {
  id: string;
  deduplicated: boolean;
}

export interface StorePlan {
  /** Each item's outcome, in item order. */
  items: StoredItem[];
  /** Every memory the batch creates or merges into, by id. */
  drafts: Map<string, Draft>;
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/**
 * Plans a batch in order: each item merges into the most similar memory at DEDUP_THRESHOLD or
 * above whose text the merge rule accepts (its nearest stored memory, or a draft of this
 * batch), else becomes a new memory. `nearest` holds each item's nearest stored memories (by
 * `i`), best first: the first is the one to merge into.
 */
export function planStore(
  inputs: NewMemory[],
  vectors: number[][],
  hashes: string[],
  nearest: Nearest[],
): StorePlan {
  const nearestOf = new Map<number, Nearest>();
  for (const r of nearest) if (!nearestOf.has(Number(r.i))) nearestOf.set(Number(r.i), r);
  const drafts = new Map<string, Draft>();
  const items: StoredItem[] = [];
  for (const [i, input] of inputs.entries()) {
    const vector = vectors[i] ?? [];
    const hash = hashes[i] ?? "";
    let target: Draft | undefined;
    let best = DEDUP_THRESHOLD;
    const fromDb = nearestOf.get(i);
    if (
      fromDb &&
      Number(fromDb.similarity) >= best &&
      !drafts.has(fromDb.id) &&
      mergeText(fromDb.content, input.content)
    ) {
      best = Number(fromDb.similarity);
      target = existingDraft(fromDb, input.namespace);
    }
    // Memories this batch already created or changed: compare with their current vectors.
    for (const draft of drafts.values()) {
      if (draft.namespace !== input.namespace) continue;
      // A merged-into row that kept its text has no vector here: its similarity to this
      // item is the one the probe measured (when it was this item's nearest).
      const similarity =
        draft.vector.length > 0
          ? dot(draft.vector, vector)
          : fromDb?.id === draft.id
            ? Number(fromDb.similarity)
            : 0;
      if (similarity >= best && mergeText(draft.content, input.content)) {
        best = similarity;
        target = draft;
      }
    }
    if (target) {
      drafts.set(target.id, target);
      merge(target, input, vector, hash);
      items.push({ id: target.id, deduplicated: true });
      continue;
    }
    const draft: Draft = {
      id: crypto.randomUUID(),
      isNew: true,
      dirty: true,
      namespace: input.namespace,
      content: input.content,
      vector,
      hash,
      tags: input.tags,
      metadata: input.metadata,
      importance: input.importance,
      pinned: input.pinned,
      immutable: input.immutable,
      expiresAt: input.expiresAt,
      input,
    };
    drafts.set(draft.id, draft);
    items.push({ id: draft.id, deduplicated: false });
  }
  return { items, drafts };
}
