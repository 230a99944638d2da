import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { ApiError } from "../errors";

/** One failing field of a 422, as clients see it in `details.issues`. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** A failing field found by code: its path as segments, like a zod issue's. */
export interface PathIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** `memories.2.metadata.note`, or `(body)` for the whole body. */
const fieldPath = (path: readonly PropertyKey[]) => path.map(String).join(".") || "(body)";

/** The one 422 body: a summary of the first issue, and every issue in `details.issues`. */
export function issuesError(found: readonly PathIssue[]): ApiError {
  const issues: FieldIssue[] = found.map((i) => ({ path: fieldPath(i.path), message: i.message }));
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : "Invalid request";
  return new ApiError("VALIDATION_ERROR", summary, { issues });
}

export const validationError = (error: z.ZodError): ApiError => issuesError(error.issues);

/**
 * zod validation for one part of the request; every failure becomes the same 422 body with
 * the field paths in `details.issues`.
 */
export function valid<T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(result.error as unknown as z.ZodError);
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * False for text Postgres cannot store: NUL (text and jsonb refuse it) and a UTF-16 surrogate
 * without its pair (it has no UTF-8 form: jsonb refuses its escape, text would silently get
 * U+FFFD instead).
 */
export const storable = (s: string) => !s.includes("\u0000") && !LONE_SURROGATE.test(s);

export const UNSTORABLE_TEXT = "must not contain NUL characters or unpaired UTF-16 surrogates";

/**
 * Text the service itself produced (a language model's facts), made storable: NUL dropped,
 * an unpaired surrogate replaced by U+FFFD. A user's own text is refused instead (422).
 */
export const toStorable = (s: string) =>
  s.replaceAll("\u0000", "").replace(new RegExp(LONE_SURROGATE.source, "g"), "\uFFFD");

/** A key shown in a field path, its unstorable characters replaced so the 422 itself is clean. */
const shownKey = (key: string) =>
  storable(key) ? key : key.replace(new RegExp(`\\u0000|${LONE_SURROGATE.source}`, "g"), "\uFFFD");

/** Enough to name the problem; a body with a million bad strings must not echo them all. */
const MAX_ISSUES = 20;

/**
 * Every string (object keys included) Postgres could not store, and every container nested
 * deeper than `maxDepth` (a flat object is depth 1, as in the metadata limit), of a parsed JSON
 * value. Iterative, so a value nested 100,000 deep is refused instead of overflowing the stack
 * of a recursive walk (zod's, JSON.stringify's, ours).
 */
export function inputIssues(
  value: unknown,
  maxDepth: number,
  base: readonly PropertyKey[] = [],
): PathIssue[] {
  const issues: PathIssue[] = [];
  const stack: Array<{ value: unknown; path: readonly PropertyKey[]; depth: number }> = [
    { value, path: base, depth: 0 },
  ];
  for (let next = stack.pop(); next && issues.length < MAX_ISSUES; next = stack.pop()) {
    const { value: v, path, depth } = next;
    const key = path.length > base.length ? path[path.length - 1] : undefined;
    if (typeof key === "string" && !storable(key)) {
      issues.push({
        path: [...path.slice(0, -1), shownKey(key)],
        message: `key ${UNSTORABLE_TEXT}`,
      });
      continue;
    }
    if (typeof v === "string") {
      if (!storable(v)) issues.push({ path, message: UNSTORABLE_TEXT });
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > maxDepth) {
      issues.push({ path, message: `at most ${maxDepth} levels deep` });
      continue;
    }
    const children: Array<[PropertyKey, unknown]> = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : Object.entries(v);
    // Pushed in reverse so that issues come out in document order.
    for (const [k, child] of children.reverse()) {
      stack.push({ value: child, path: [...path, k], depth: depth + 1 });
    }
  }
  return issues;
}
