import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { ApiError } from "../errors";

export interface FieldIssue {
  path: string;
  message: string;
}

export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join(".") || "(body)",
    message: i.message,
  }));
}

export function validationError(error: z.ZodError): ApiError {
  const issues = issuesOf(error);
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : "Invalid request";
  return new ApiError("VALIDATION_ERROR", summary, { issues });
}

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
