/**
 * Which `supersedes` relations a store makes (docs/knowledge-updates.md), decided in the
 * Worker after the merge plan (memories/store-plan.ts), from what the duplicate probe already
 * read: no round trip of its own.
 *
 * - Said: each item's `supersedes` ids (checked by the probe: live memories the caller may
 *   write), and for an import, the ids other items had where they were exported.
 * - Noticed: a new item (not merged) with detection on is judged against its nearest current
 *   memories of the same namespace and scope (agent_id, session_id), and against the earlier
 *   new items of the batch (updates/detect.ts). Pinned and immutable memories are never
 *   replaced without being named. The later fact by `occurred_at` supersedes the earlier, so
 *   an imported history keeps its order whatever order it arrives in.
 * - A memory this batch replaces is no longer current, so later items of the batch are not
 *   judged against it (they meet its replacement instead): a chain, not a fan.
 */

import type { JudgedPair, UpdatePair } from "../../language-model";
import type { Draft, Nearest } from "../merge";
import type { MemoryRecord } from "../rows";
import type { NewMemory } from "../store-input";
import type { StoredItem } from "../store-plan";
import { factKey, judgeUpdate, UPDATE_MIN_SIMILARITY } from "./detect";
import type { Keyed } from "./keyed";

export interface Supersession {
  sourceId: string;
  targetId: string;
  metadata: Record<string, unknown>;
}

/** A memory a new item is judged against. */
interface Candidate {
  id: string;
  content: string;
  similarity: number;
  occurredAt: number;
  /** Found by its fact key (keyed.ts) only, not among the nearest. */
  keyed: boolean;
}

const dot = (a: number[], b: number[]) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
};

/** The verdict of a correction that names no attribute (detect.ts): the closest one only. */
const LOOSE_RULE = "correction:similar";

const round = (n: number) => Math.round(n * 1e4) / 1e4;

/**
 * Decides a store's pairs, in one call: the rules (updates/detect.ts) for store, batch store
 * and import; ingest and extract may pass a language model's judgement instead.
 */
export type UpdateJudge = (pairs: UpdatePair[]) => Promise<JudgedPair[]>;

export type { JudgedPair, UpdatePair };

export const rulesJudge: UpdateJudge = async (pairs) =>
  pairs.map((p) =>
    judgeUpdate(p.next, p.previous, { correction: p.correction, keyed: p.keyed === true }),
  );

export interface ReplacementInput {
  inputs: NewMemory[];
  vectors: number[][];
  items: StoredItem[];
  drafts: Map<string, Draft>;
  /** The probe's neighbours, best first per item (`i`). */
  nearest: Nearest[];
  /** The probe's memories of each item's fact key (keyed.ts). */
  keyed?: Keyed[];
  /** Each item's said `supersedes`, as memory ids (import references resolved). */
  said: string[][];
  now: number;
  judge?: UpdateJudge;
}

/** A pair to judge: item `i` against a candidate, the later of the two by occurred_at first. */
interface Question {
  i: number;
  candidate: Candidate;
  /** The item is the later fact: it would supersede the candidate (else the reverse). */
  newer: boolean;
}

export async function planReplacements({
  inputs,
  vectors,
  items,
  drafts,
  nearest,
  keyed = [],
  said,
  now,
  judge = rulesJudge,
}: ReplacementInput): Promise<Supersession[]> {
  const neighbours = new Map<number, Array<Nearest | Keyed>>();
  for (const row of [...nearest, ...keyed]) {
    const i = Number(row.i);
    neighbours.set(i, [...(neighbours.get(i) ?? []), row]);
  }
  const keys = inputs.map((m) => (m.detectUpdates ? factKey(m.content) : null));
  const batch: Batch = { inputs, vectors, items, drafts, neighbours, keys, now };
  const questions: Question[] = [];
  for (const [i, input] of inputs.entries()) {
    const item = items[i];
    if (!item || item.deduplicated || !input.detectUpdates) continue;
    for (const candidate of candidatesOf(i, batch)) {
      // The later fact supersedes the earlier; at the same time, the one stored now. A memory
      // without occurred_at occurs as it is stored: after everything stored before it, even
      // a store that began later and committed first (its occurred_at is the database's now).
      const newer = !input.occurredAt || input.occurredAt.getTime() >= candidate.occurredAt;
      questions.push({ i, candidate, newer });
    }
  }
  const verdicts =
    questions.length > 0
      ? await judge(
          questions.map(({ i, candidate, newer }) => {
            const input = inputs[i] as NewMemory;
            return newer
              ? {
                  next: input.content,
                  previous: { content: candidate.content, similarity: candidate.similarity },
                  correction: input.memoryType === "correction",
                  keyed: candidate.keyed,
                }
              : {
                  next: candidate.content,
                  previous: { content: input.content, similarity: candidate.similarity },
                  correction: false,
                  keyed: candidate.keyed,
                };
          }),
        )
      : [];

  const out: Supersession[] = [];
  const edges = new Set<string>();
  const replaced = new Set<string>();
  const add = (sourceId: string, targetId: string, metadata: Record<string, unknown>) => {
    const key = `${sourceId}>${targetId}`;
    if (sourceId === targetId || edges.has(key)) return;
    edges.add(key);
    replaced.add(targetId);
    out.push({ sourceId, targetId, metadata });
  };
  // A correction that names no attribute corrects the one memory it is closest to, not all.
  const bestLoose = new Map<number, number>();
  questions.forEach(({ i }, k) => {
    const v = verdicts[k];
    if (!v?.replaces || !v.rule.startsWith(LOOSE_RULE)) return;
    const best = bestLoose.get(i);
    if (best === undefined || (verdicts[best]?.score ?? 0) < v.score) bestLoose.set(i, k);
  });
  let q = 0;
  for (const [i] of inputs.entries()) {
    const item = items[i];
    if (!item) continue;
    for (const target of said[i] ?? []) add(item.id, target, { detected_by: "caller" });
    for (; q < questions.length && questions[q]?.i === i; q++) {
      const { candidate: c, newer } = questions[q] as Question;
      const verdict = verdicts[q];
      if (verdict?.rule.startsWith(LOOSE_RULE) && bestLoose.get(i) !== q) continue;
      // A memory this batch replaced already is history: the batch meets its replacement.
      if (!verdict?.replaces || replaced.has(c.id) || replaced.has(item.id)) continue;
      const metadata = {
        detected_by: verdict.detectedBy ?? "rules",
        rule: verdict.rule,
        score: round(verdict.score),
        similarity: round(c.similarity),
      };
      if (newer) add(item.id, c.id, metadata);
      else add(c.id, item.id, metadata);
    }
  }
  return out;
}

/**
 * Item `i`'s candidates: its nearest current memories from the probe, and the earlier new
 * items of the batch, in its namespace and scope, at UPDATE_MIN_SIMILARITY or more.
 */
/** What candidatesOf reads of a store. */
interface Batch {
  inputs: NewMemory[];
  vectors: number[][];
  items: StoredItem[];
  drafts: Map<string, Draft>;
  neighbours: Map<number, Array<Nearest | Keyed>>;
  /** Each item's fact key (detect.ts), null without one or without detection. */
  keys: Array<string | null>;
  now: number;
}

function candidatesOf(
  i: number,
  { inputs, vectors, items, drafts, neighbours, keys, now }: Batch,
): Candidate[] {
  const input = inputs[i] as NewMemory;
  const item = items[i] as StoredItem;
  const rows = neighbours.get(i) ?? [];
  // A memory both near and of the key keeps its similarity: it is judged as a neighbour.
  const near = new Map(rows.flatMap((r) => ("similarity" in r ? [[r.id, r] as const] : [])));
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const row of rows) {
    const neighbour = near.get(row.id);
    const similarity = neighbour ? Number(neighbour.similarity) : 0;
    const keyed = !neighbour;
    if (
      seen.has(row.id) ||
      row.id === item.id ||
      row.pinned ||
      row.immutable ||
      drafts.get(row.id)?.dirty ||
      (!keyed && similarity < UPDATE_MIN_SIMILARITY) ||
      (row.session_id ?? null) !== input.sessionId ||
      (row.agent_id ?? null) !== input.agentId
    ) {
      continue;
    }
    seen.add(row.id);
    candidates.push({
      id: row.id,
      content: row.content,
      similarity,
      occurredAt: new Date(row.occurred_at).getTime(),
      keyed,
    });
  }
  for (const [j, earlier] of inputs.slice(0, i).entries()) {
    const other = items[j];
    if (
      !other ||
      other.deduplicated ||
      other.id === item.id ||
      earlier.namespace !== input.namespace ||
      earlier.sessionId !== input.sessionId ||
      earlier.agentId !== input.agentId ||
      earlier.pinned ||
      earlier.immutable
    ) {
      continue;
    }
    const similarity = dot(vectors[j] ?? [], vectors[i] ?? []);
    // An earlier item of the same key is a candidate at any similarity, as in the database.
    const keyed = similarity < UPDATE_MIN_SIMILARITY;
    if (keyed && (keys[i] === null || keys[i] !== keys[j])) continue;
    candidates.push({
      id: other.id,
      content: earlier.content,
      similarity,
      occurredAt: earlier.occurredAt?.getTime() ?? now,
      keyed,
    });
  }
  return candidates;
}

/**
 * A judge that remembers its verdicts across a store's attempts: a retry asks again only about
 * pairs it has not seen (a concurrent store's new memory), and may send those elsewhere.
 */
export interface RememberingJudge {
  judge: UpdateJudge;
  rememberedOr(other: UpdateJudge): UpdateJudge;
}

export function rememberingJudge(first: UpdateJudge): RememberingJudge {
  const known = new Map<string, JudgedPair>();
  const key = (p: UpdatePair) => JSON.stringify([p.next, p.previous.content, p.correction]);
  const using =
    (judge: UpdateJudge): UpdateJudge =>
    async (pairs) => {
      const fresh = pairs.filter((p) => !known.has(key(p)));
      if (fresh.length > 0) {
        const verdicts = await judge(fresh);
        fresh.forEach((p, k) => {
          const v = verdicts[k];
          if (v) known.set(key(p), v);
        });
      }
      return pairs.map((p) => known.get(key(p)) ?? { replaces: false, score: 0, rule: "unjudged" });
    };
  return { judge: using(first), rememberedOr: using };
}

/**
 * A written row's replacement fields with this store's own relations: the write statement
 * reads the ones before it (its snapshot does not see what it inserts).
 */
export function withSupersessions(row: MemoryRecord, made: Supersession[]): MemoryRecord {
  const supersedes = [...(row.supersedes ?? [])];
  for (const s of made) {
    if (s.sourceId === row.id && !supersedes.includes(s.targetId)) supersedes.push(s.targetId);
  }
  const by = made.find((s) => s.targetId === row.id)?.sourceId ?? row.supersededBy;
  return { ...row, supersedes, supersededBy: by };
}
