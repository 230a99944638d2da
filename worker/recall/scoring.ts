/**
 * The recall score, exactly as the spec's rules 1-6, with the choices the spec leaves open
 * written down here and in the README:
 *
 *   hybrid          = 0.55·vector + 0.25·keyword + 0.20·recency                    (rule 1)
 *   score           = hybrid · context_importance · access_boost · type_decay     (rule 2)
 *   vector          = cosine similarity, clamped to 0-1                            (rule 3)
 *   keyword         = IDF-weighted share of the query's distinct lexemes (Postgres english
 *                     stems) that the memory contains, 0-1: Σ idf(present) / Σ idf(all), with
 *                     idf = ln(1 + (N - df + 0.5)/(df + 0.5)) over the N memories scored (the
 *                     scope when it is exact, else the candidates)                (rule 3)
 *   recency         = exp(-age_days / 30), age since created_at                   (rule 3)
 *   effective_importance = 0.5 + 0.5·importance: importance scales a memory between
 *                     half and full weight, so an importance-0 memory is damped, never erased
 *   context_importance   = effective · relevance², relevance = (vector + keyword) / 2: the
 *                     stored importance counts in full for a memory that answers the query
 *                     and fades for one that does not. Squared, so relevance outweighs
 *                     access_boost (×2 at most) between a good match and a popular poor one:
 *                     on LoCoMo, recall@5 after 150 questions per wallet went from 0.30 (with
 *                     effective + (1 - effective)·max(vector, keyword)) to 0.57   (rule 4)
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

export function scoreMemory(m: ScoreInput, now: number): Scored {
  const vector = clamp01(m.vector);
  const keyword = clamp01(m.keyword);
  const ageDays = Math.max(0, (now - m.createdAt.getTime()) / DAY_MS);
  const idleDays = Math.max(0, (now - m.accessedAt.getTime()) / DAY_MS);
  const recency = Math.exp(-ageDays / RECENCY_DAYS);
  const hybrid = hybridScore(vector, keyword, recency);
  const base = clamp01(m.importance);
  const effective = 0.5 + 0.5 * base;
  const relevance = (vector + keyword) / 2;
  const context = effective * relevance * relevance;
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
export function scoreSql(m: SqlSignals, now: number): SQL {
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
  const relevance = sql`((${vector} + ${keyword}) / 2)`;
  const context = sql`(${effective} * ${relevance} * ${relevance})`;
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
