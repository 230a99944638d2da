/**
 * The recall score, exactly as the spec's rules 1-6, with the choices the spec leaves open
 * written down here and in docs/recall.md:
 *
 *   hybrid          = 0.55·vector + 0.25·keyword + 0.20·recency                    (rule 1)
 *   score           = hybrid · context_importance · access_boost · type_decay     (rule 2)
 *   vector          = cosine similarity, clamped to 0-1                            (rule 3)
 *   keyword         = IDF-weighted share of the query's distinct lexemes (Postgres english
 *                     stems) that the memory contains, 0-1: Σ idf(present) / Σ idf(all), with
 *                     idf = ln(1 + (N - df + 0.5)/(df + 0.5)) over the N memories scored (the
 *                     scope when it is exact, else the candidates)                (rule 3)
 *   recency         = exp(-age_days / 30), age since created_at                   (rule 3)
 *                     (since occurred_at: when the fact occurred, created_at unless the
 *                     store said otherwise; docs/knowledge-updates.md)
 *   effective_importance = 0.5 + 0.5·importance: importance scales a memory between
 *                     half and full weight, so an importance-0 memory is damped, never erased
 *   context_importance   = effective · relevance⁵, relevance = 0.45·vector' + 0.55·keyword:
 *                     the stored importance counts in full for a memory that answers the
 *                     query and fades for one that does not. To the fifth power, so relevance
 *                     outweighs access_boost (×2 at most) between a good match and a popular
 *                     poor one. vector' is the cosine for the lexical embedder; for a semantic
 *                     model (bge: unrelated texts at 0.3-0.5, a paraphrase at 0.6-0.8) it is
 *                     where the memory's cosine sits between the median and the best cosine
 *                     of the memories scored for this query, 0-1, so the vector weighs about
 *                     as much as the keyword does inside relevance. LoCoMo R@10 (bge): 67.4
 *                     with (vector + keyword)/2 squared, 70.4 to the fourth, 72.4 rescaled
 *                     too, 72.9 with these weights and power (R@1 37.7 → 38.7; REALTALK R@1
 *                     29.8 → 31.5, docs/recall.md); lexical: 64.3, 64.4 (rescaling it cost 4
 *                     points). Among a handful of memories the range is narrower
 *                     (vectorRange)                                              (rule 4)
 *   access_boost    = min(1 + 0.1·access_count, 2)                                 (rule 5)
 *   type_decay      = 0.5^(idle_days / (half_life · (1 + ln(1 + relation_count)))), where
 *                     idle_days counts from accessed_at (set at store, reset by every recall:
 *                     "accessing a memory resets its decay timer"); pinned → 1    (rule 6)
 */
import { type SQL, sql } from "drizzle-orm";
import type { MemoryType } from "../memories/fields";

export const WEIGHTS = { vector: 0.55, keyword: 0.25, recency: 0.2 } as const;
export const RECENCY_DAYS = 30;

export const HALF_LIFE_DAYS: Record<MemoryType, number> = {
  correction: 180,
  preference: 180,
  decision: 90,
  project: 30,
  observation: 14,
  general: 60,
};

const DAY_MS = 86_400_000;

export interface ScoreInput {
  vector: number;
  keyword: number;
  importance: number;
  memoryType: string;
  pinned: boolean;
  accessCount: number;
  relationCount: number;
  createdAt: Date;
  accessedAt: Date;
}

export interface Signals {
  vector: number;
  keyword: number;
  recency: number;
  base_importance: number;
  effective_importance: number;
  context_importance: number;
  relation_count: number;
  type_decay: number;
}

export interface Scored {
  score: number;
  signals: Signals;
}

/** Exponent of relevance in context_importance. */
export const RELEVANCE_POWER = 5;
/** vector′'s share of relevance; the keyword signal has the rest. */
export const VECTOR_SHARE = 0.45;

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

export function typeDecay(
  memoryType: string,
  pinned: boolean,
  relationCount: number,
  idleDays: number,
): number {
  if (pinned) return 1;
  const halfLife = HALF_LIFE_DAYS[memoryType as MemoryType] ?? HALF_LIFE_DAYS.general;
  const slowed = halfLife * (1 + Math.log(1 + Math.max(0, relationCount)));
  return 0.5 ** (Math.max(0, idleDays) / slowed);
}

/** Rule 1: the weighted sum of the three relevance signals, each 0-1. */
export function hybridScore(vector: number, keyword: number, recency: number): number {
  return WEIGHTS.vector * vector + WEIGHTS.keyword * keyword + WEIGHTS.recency * recency;
}

/**
 * A handful of scored cosines. Their median says little about where "unrelated" lies: with two
 * memories it is their mean, and a 0.02 difference in cosine between two texts that match a
 * query equally (bge: 0.70 and 0.72) would become 1 against 0 and, to the fifth power,
 * outweigh importance and recency. So with up to FEW cosines the range is
 * [best − MIN_SPREAD, best − NEAR_TIE] instead: a cosine within NEAR_TIE of the best counts as
 * the best, one MIN_SPREAD below it (bge: an unrelated text) as 0. From FEW to SMALL_SCOPE
 * cosines it moves linearly to the median's range, so a wallet's ranking changes by degrees as
 * it grows. Measured with bge: texts that match "Zephyr project" equally lie within 0.05 of
 * each other, an unrelated one 0.2-0.3 below; among test/meaning.test.ts's ten memories the
 * median's range (0.09 wide) is what ranks "I moved to Berlin" first for "where does the user
 * live now?", and a range widened there ranks "The user prefers dark mode" first, so larger
 * scopes keep the median's.
 */
export const FEW = 3;
export const SMALL_SCOPE = 8;
export const MIN_SPREAD = 0.2;
export const NEAR_TIE = 0.05;

/** The query's median and best cosine among the `n` memories scored (of a semantic model). */
export interface VectorScale {
  median: number;
  best: number;
  n: number;
}

/** Where the rescale puts 0 and 1 (see SMALL_SCOPE). */
export function vectorRange(scale: VectorScale): { low: number; high: number } {
  const small = clamp01((SMALL_SCOPE - scale.n) / (SMALL_SCOPE - FEW));
  const narrow = Math.min(scale.median, scale.best - MIN_SPREAD);
  return {
    low: scale.median + small * (narrow - scale.median),
    high: scale.best - small * NEAR_TIE,
  };
}

/** vector' of the header: the cosine, or for a semantic model its place in the query's range. */
export function relevantVector(vector: number, scale: VectorScale | null): number {
  if (scale === null || vector <= 0) return vector;
  const { low, high } = vectorRange(scale);
  // One memory, or all alike: the best (and only) match counts in full.
  if (high - low <= 1e-9) return vector >= scale.best ? 1 : 0;
  return clamp01((vector - low) / (high - low));
}

export function scoreMemory(m: ScoreInput, now: number, scale: VectorScale | null = null): Scored {
  const vector = clamp01(m.vector);
  const keyword = clamp01(m.keyword);
  const ageDays = Math.max(0, (now - m.createdAt.getTime()) / DAY_MS);
  const idleDays = Math.max(0, (now - m.accessedAt.getTime()) / DAY_MS);
  const recency = Math.exp(-ageDays / RECENCY_DAYS);
  const hybrid = hybridScore(vector, keyword, recency);
  const base = clamp01(m.importance);
  const effective = 0.5 + 0.5 * base;
  const relevance = VECTOR_SHARE * relevantVector(vector, scale) + (1 - VECTOR_SHARE) * keyword;
  const context = effective * relevance ** RELEVANCE_POWER;
  const accessBoost = Math.min(1 + 0.1 * Math.max(0, m.accessCount), 2);
  const decay = typeDecay(m.memoryType, m.pinned, m.relationCount, idleDays);
  return {
    score: hybrid * context * accessBoost * decay,
    signals: {
      vector,
      keyword,
      recency,
      base_importance: base,
      effective_importance: effective,
      context_importance: context,
      relation_count: m.relationCount,
      type_decay: decay,
    },
  };
}

/** SQL expressions (float8) of a candidate row's raw signals, the inputs of scoreSql. */
export interface SqlSignals {
  vector: SQL;
  keyword: SQL;
  importance: SQL;
  memoryType: SQL;
  pinned: SQL;
  accessCount: SQL;
  relationCount: SQL;
  createdAt: SQL;
  accessedAt: SQL;
}

/** clamp01 in SQL; NaN (a zero vector's cosine) is 0, as in scoreMemory. */
const clampSql = (x: SQL) => sql`CASE WHEN (${x}) = 'NaN'::float8 THEN 0::float8
  ELSE greatest(0::float8, least(1::float8, (${x})::float8)) END`;

/**
 * scoreMemory's score as a SQL expression, so Postgres can rank candidates and send back only
 * the top rows. Same constants, same formula; scoreMemory stays the reference (it computes the
 * returned score and signals), and recall re-sorts the rows it gets with it.
 */
export function scoreSql(
  m: SqlSignals,
  now: number,
  scale: { median: SQL; best: SQL; n: SQL } | null = null,
): SQL {
  const day = sql.raw(String(DAY_MS));
  const nowMs = sql.raw(String(now));
  // float8 throughout: extract() and untyped literals are numeric, ~10× slower per row.
  const ms = (t: SQL) => sql`(extract(epoch FROM ${t})::float8 * 1000)`;
  const vector = clampSql(m.vector);
  const keyword = clampSql(m.keyword);
  const ageDays = sql`greatest(0::float8, (${nowMs} - ${ms(m.createdAt)}) / ${day})`;
  const idleDays = sql`greatest(0::float8, (${nowMs} - ${ms(m.accessedAt)}) / ${day})`;
  const recency = sql`exp(-(${ageDays}) / ${sql.raw(String(RECENCY_DAYS))})`;
  const hybrid = sql`(${sql.raw(String(WEIGHTS.vector))} * ${vector}
    + ${sql.raw(String(WEIGHTS.keyword))} * ${keyword}
    + ${sql.raw(String(WEIGHTS.recency))} * ${recency})`;
  const effective = sql`(0.5::float8 + 0.5::float8 * ${clampSql(m.importance)})`;
  // vectorRange in SQL: `small` is 1 up to FEW cosines, 0 from SMALL_SCOPE on.
  const small =
    scale &&
    sql`least(1::float8, greatest(0::float8, (${sql.raw(String(SMALL_SCOPE))}::float8 - (${scale.n})::float8) / ${sql.raw(String(SMALL_SCOPE - FEW))}::float8))`;
  const range = scale &&
    small && {
      low: sql`((${scale.median}) + ${small} * (least(${scale.median}, (${scale.best}) - ${sql.raw(String(MIN_SPREAD))}::float8) - (${scale.median})))`,
      high: sql`((${scale.best}) - ${small} * ${sql.raw(String(NEAR_TIE))}::float8)`,
    };
  const rescaled =
    range === null || range === undefined
      ? vector
      : sql`(CASE WHEN ${vector} <= 0 THEN 0::float8
          WHEN ${range.high} - ${range.low} <= 1e-9
            THEN CASE WHEN ${vector} >= (${scale?.best}) THEN 1::float8 ELSE 0::float8 END
          ELSE ${clampSql(sql`(${vector} - ${range.low}) / (${range.high} - ${range.low})`)} END)`;
  const relevance = sql`(${sql.raw(String(VECTOR_SHARE))}::float8 * ${rescaled}
    + ${sql.raw(String(1 - VECTOR_SHARE))}::float8 * ${keyword})`;
  const context = sql`(${effective} * power(${relevance}, ${sql.raw(String(RELEVANCE_POWER))}::float8))`;
  const boost = sql`least(1 + 0.1::float8 * greatest(0, (${m.accessCount})::float8), 2)`;
  const halfLife = sql`(CASE ${m.memoryType} ${sql.join(
    Object.entries(HALF_LIFE_DAYS).map(([type, days]) => sql.raw(`WHEN '${type}' THEN ${days}`)),
    sql` `,
  )} ELSE ${sql.raw(String(HALF_LIFE_DAYS.general))} END)`;
  const slowed = sql`(${halfLife}::float8 * (1 + ln(1 + greatest(0, (${m.relationCount})::float8))))`;
  const decay = sql`CASE WHEN ${m.pinned} THEN 1::float8
    ELSE power(0.5::float8, (${idleDays}) / ${slowed}) END`;
  return sql`(${hybrid} * ${context} * ${boost} * ${decay})`;
}
