/**
 * zod schemas for the fields of a memory, with every limit of the spec's Limits table.
 * Store, batch store, update, batch update and import all build on these.
 */
import { z } from "zod";
import {
  MEMORY_TYPES,
  type MemoryType,
  RELATION_TYPES,
  type RelationType,
} from "../../schema/kinds";

export { MEMORY_TYPES, type MemoryType, RELATION_TYPES, type RelationType };

export const LIMITS = {
  content: 8192,
  metadataBytes: 4096,
  metadataKeys: 20,
  metadataDepth: 3,
  tags: 10,
  tagLength: 64,
  scope: 255,
  batch: 100,
  supersedes: 10,
} as const;

/**
 * Nesting depth of a JSON value (a flat object is 1, an object inside it 2, and so on), counted
 * no further than `cap + 1`: iterative and bounded, so no value can overflow the stack here.
 */
export function jsonDepth(value: unknown, cap: number = LIMITS.metadataDepth): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (next.value === null || typeof next.value !== "object") continue;
    const depth = next.depth + 1;
    deepest = Math.max(deepest, depth);
    if (depth > cap) break;
    for (const child of Object.values(next.value)) stack.push({ value: child, depth });
  }
  return deepest;
}

export const byteLength = (s: string) => new TextEncoder().encode(s).length;

/**
 * A UUID, lower-cased: Postgres accepts either case but returns lower case, and code that
 * compares ids as strings (relations, graph walk) must see the same spelling.
 */
export const uuid = z.uuid({ message: "must be a UUID" }).transform((s) => s.toLowerCase());

/** A text that says something: not blank, at most `max` characters. */
export const nonBlankText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim().length > 0, "must not be empty");

export const content = nonBlankText(LIMITS.content);

export const tag = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.tagLength, `must be at most ${LIMITS.tagLength} characters`);
export const tags = z.array(tag).max(LIMITS.tags, `at most ${LIMITS.tags} tags`);

export const metadata = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  // Depth first: sizing a value nested too deep would walk all of it.
  const depth = jsonDepth(value);
  if (depth > LIMITS.metadataDepth) {
    ctx.addIssue({ code: "custom", message: `at most ${LIMITS.metadataDepth} levels deep` });
    return;
  }
  const keys = Object.keys(value).length;
  if (keys > LIMITS.metadataKeys) {
    ctx.addIssue({ code: "custom", message: `at most ${LIMITS.metadataKeys} keys (got ${keys})` });
  }
  const bytes = byteLength(JSON.stringify(value));
  if (bytes > LIMITS.metadataBytes) {
    ctx.addIssue({
      code: "custom",
      message: `at most ${LIMITS.metadataBytes} bytes (got ${bytes})`,
    });
  }
  if ("tags" in value) {
    const parsed = tags.safeParse(value.tags);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: "custom", path: ["tags", ...issue.path], message: issue.message });
      }
    }
  }
});

export const scope = z.string().max(LIMITS.scope, `must be at most ${LIMITS.scope} characters`);
export const namespace = scope.min(1, "must not be empty");
/**
 * Kept to the 6 decimals responses show (rows.ts roundImportance): the column is a `real`, and a
 * value too small for it (1e-320) would otherwise fail in Postgres; it is stored as 0.
 */
export const importance = z
  .number()
  .min(0, "must be between 0 and 1")
  .max(1, "must be between 0 and 1")
  .transform((n) => Math.round(n * 1e6) / 1e6);
export const memoryType = z.enum(MEMORY_TYPES);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Years 1 to 9999 in UTC: four-digit ISO 8601 years that Postgres's timestamptz holds (it has
 * no year 0, and an offset can push 9999-12-31 into year 10000).
 */
export const DATE_RANGE = {
  min: Date.parse("0001-01-01T00:00:00.000Z"),
  max: Date.parse("9999-12-31T23:59:59.999Z"),
} as const;

/** An ISO 8601 date or date-time string, parsed to a Date. */
export const isoDate = z
  .string()
  .regex(ISO_DATE, { message: "must be an ISO 8601 date-time", abort: true })
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: "must be a valid date", abort: true })
  .transform((s) => new Date(s))
  .refine((d) => d.getTime() >= DATE_RANGE.min && d.getTime() <= DATE_RANGE.max, {
    message: "must be between 0001-01-01 and 9999-12-31 (UTC)",
    abort: true,
  });

export const futureDate = isoDate.refine((d) => d.getTime() > Date.now(), "must be in the future");

/** Clocks of callers run a little ahead: a fact's time may be this far past the service's now. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** When a fact was said or became true: not in the future (a planned change is content). */
export const pastDate = isoDate.refine(
  (d) => d.getTime() <= Date.now() + CLOCK_SKEW_MS,
  "must not be in the future",
);

/** The memories a new one replaces, by id (docs/knowledge-updates.md). */
export const supersedesIds = z
  .array(uuid)
  .max(LIMITS.supersedes, `at most ${LIMITS.supersedes} ids`)
  .transform((ids) => [...new Set(ids)]);

/** Query-string booleans: `true`/`false` (and 1/0), nothing else. */
export const queryBool = z
  .enum(["true", "false", "1", "0"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

export const queryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .optional()
    .transform((v) => v ?? fallback);

/**
 * A page size in a query string: a whole number of at least 1; above `max` it is lowered to
 * `max` instead of refused. The spec's list responses report `limit` "as applied", and the
 * public CLI asks for 1000 to mean "as many as you give".
 */
export const queryLimit = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    // Clamped before the number check, so that a string of many digits (Infinity) clamps too.
    .transform((s) => Math.min(Number(s), max))
    .pipe(z.number().int().min(1, "must be at least 1"))
    .optional()
    .transform((v) => v ?? fallback);

/** Comma-separated list in a query string (`tags=a,b`), or the parameter repeated. */
export const csv = z.union([z.string(), z.array(z.string())]).transform((v) =>
  (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);

/** Tags from top-level `tags` and `metadata.tags`, merged in order without repeats. */
export function mergeTags(...lists: Array<readonly string[] | undefined>): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const t of list ?? []) seen.add(t);
  return [...seen];
}
