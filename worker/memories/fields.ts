/**
 * zod schemas for the fields of a memory, with every limit of the spec's Limits table.
 * Store, batch store, update, batch update and import all build on these.
 */
import { z } from "zod";

export const MEMORY_TYPES = [
  "correction",
  "preference",
  "decision",
  "project",
  "observation",
  "general",
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const RELATION_TYPES = [
  "related_to",
  "derived_from",
  "contradicts",
  "supersedes",
  "supports",
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

export const LIMITS = {
  content: 8192,
  metadataBytes: 4096,
  metadataKeys: 20,
  metadataDepth: 3,
  tags: 10,
  tagLength: 64,
  scope: 255,
  batch: 100,
} as const;

/** Nesting depth of a JSON value: a flat object is 1, an object inside it 2, and so on. */
export function jsonDepth(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  let deepest = 0;
  for (const child of children) deepest = Math.max(deepest, jsonDepth(child));
  return 1 + deepest;
}

export const byteLength = (s: string) => new TextEncoder().encode(s).length;

/**
 * A UUID, lower-cased: Postgres accepts either case but returns lower case, and code that
 * compares ids as strings (relations, graph walk) must see the same spelling.
 */
export const uuid = z.uuid({ message: "must be a UUID" }).transform((s) => s.toLowerCase());

export const content = z
  .string()
  .max(LIMITS.content, `must be at most ${LIMITS.content} characters`)
  .refine((s) => s.trim().length > 0, "must not be empty");

export const tag = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.tagLength, `must be at most ${LIMITS.tagLength} characters`);
export const tags = z.array(tag).max(LIMITS.tags, `at most ${LIMITS.tags} tags`);

export const metadata = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
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
  const depth = jsonDepth(value);
  if (depth > LIMITS.metadataDepth) {
    ctx.addIssue({
      code: "custom",
      message: `at most ${LIMITS.metadataDepth} levels deep (got ${depth})`,
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
export const importance = z
  .number()
  .min(0, "must be between 0 and 1")
  .max(1, "must be between 0 and 1");
export const memoryType = z.enum(MEMORY_TYPES);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or date-time string, parsed to a Date. */
export const isoDate = z
  .string()
  .regex(ISO_DATE, "must be an ISO 8601 date-time")
  .refine((s) => !Number.isNaN(Date.parse(s)), "must be a valid date")
  .transform((s) => new Date(s));

export const futureDate = isoDate.refine((d) => d.getTime() > Date.now(), "must be in the future");

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
