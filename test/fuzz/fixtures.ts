/** What the fuzz tests share: the characters they inject, and the 422 they expect. */
import { expect } from "vitest";
import { type ApiResponse, expectError, issuePaths, type Wallet } from "../helpers";

export const HIGH = "\ud800";
export const LOW = "\udc00";
export const NUL = "\u0000";

/** The 422 of a failed field check; returns the failing paths. */
export function expectIssues(res: ApiResponse, label: string): string[] {
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(422);
  expectError(res, 422, "VALIDATION_ERROR");
  return issuePaths(res);
}

/** A memory of the wallet for PATCH and relation cases. */
export const memoryOf = (w: Wallet) => w.store("a memory to patch or relate");
