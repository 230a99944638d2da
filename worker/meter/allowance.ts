/**
 * A wallet's free allowance and its credit, in its Meter: plain functions over the object's
 * storage (the tables are documented with the others in meter-object.ts). Each is one
 * synchronous Durable Object call, so concurrent requests never take the same free call.
 */

/** What a paid call without a payment asks of the wallet's allowance (reserveFree). */
export interface FreeAsk {
  /** The allowance (FREE_CALLS_PER_WALLET). */
  total: number;
  /** Free calls the call costs (1, or one per 100 memories imported); default 1. */
  count?: number;
  /** Its price in atomic units: taken from the wallet's credit when no free call is left. */
  creditPrice?: number;
}

/**
 * A call taken from the allowance (`count` free calls, absent = 1) or, when `credit` is set,
 * that many atomic units of the wallet's credit; `used` and `remaining` are the allowance's.
 */
export interface FreeGrant {
  granted: boolean;
  used: number;
  remaining: number;
  count?: number;
  credit?: number;
}

export interface FreeUsage {
  used: number;
  remaining: number;
  /** The wallet's credit in atomic units, when it holds any. */
  credit?: number;
}

/** A table of one row (id = 1) holding one number. */
interface SingleRow {
  table: string;
  column: string;
}

const FREE_TIER: SingleRow = { table: "free_tier", column: "used" };
const CREDIT: SingleRow = { table: "credit", column: "atomic" };

const singleRowTable = ({ table, column }: SingleRow) =>
  `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), ${column} INTEGER NOT NULL)`;

export const FREE_TIER_TABLE = singleRowTable(FREE_TIER);
export const CREDIT_TABLE = singleRowTable(CREDIT);

/** A single-row table's number; absent = 0. */
function read(sql: SqlStorage, { table, column }: SingleRow): number {
  const rows = sql
    .exec<Record<string, number>>(`SELECT ${column} AS n FROM ${table} WHERE id = 1`)
    .toArray();
  return rows[0]?.n ?? 0;
}

function write(sql: SqlStorage, { table, column }: SingleRow, value: number): void {
  sql.exec(
    `INSERT INTO ${table} (id, ${column}) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET ${column} = excluded.${column}`,
    value,
  );
}

/**
 * Takes `count` calls from the free allowance of `total` if that many are left (all or
 * nothing), else `creditPrice` atomic units of the wallet's credit if it holds that much.
 */
export function reserveFree(
  sql: SqlStorage,
  total: number,
  count = 1,
  creditPrice?: number,
): FreeGrant {
  const used = read(sql, FREE_TIER);
  const remaining = Math.max(0, total - used);
  if (count <= remaining) {
    write(sql, FREE_TIER, used + count);
    return {
      granted: true,
      used: used + count,
      remaining: remaining - count,
      ...(count === 1 ? {} : { count }),
    };
  }
  if (creditPrice !== undefined && creditPrice > 0 && spendCredit(sql, creditPrice)) {
    return { granted: true, used, remaining, credit: creditPrice };
  }
  return { granted: false, used, remaining };
}

/** Gives back `count` reserved calls (the paid call failed); never below 0 used. */
export function releaseFree(sql: SqlStorage, count = 1): { used: number } {
  const used = Math.max(0, read(sql, FREE_TIER) - count);
  write(sql, FREE_TIER, used);
  return { used };
}

/** Adds to the wallet's credit (a paid call failed after its payment settled). */
export function addCredit(sql: SqlStorage, atomic: number): { credit: number } {
  const credit = read(sql, CREDIT) + atomic;
  write(sql, CREDIT, credit);
  return { credit };
}

/** Takes `atomic` units of the wallet's credit if it holds that much. */
export function spendCredit(sql: SqlStorage, atomic: number): boolean {
  const held = read(sql, CREDIT);
  if (held < atomic) return false;
  write(sql, CREDIT, held - atomic);
  return true;
}

export function freeStatus(sql: SqlStorage, total: number): FreeUsage {
  const used = read(sql, FREE_TIER);
  const credit = read(sql, CREDIT);
  return { used, remaining: Math.max(0, total - used), ...(credit > 0 ? { credit } : {}) };
}
