/** The spec's parser (test/spec/parse.ts): what it takes from the spec's sentences, and that it throws when they change. */
import { describe, expect, it } from "vitest";
import { parseSpecFacts } from "./parse";

const SPEC = [
  "| `memory_type` | string | one of `correction`, `general`; default `general` |",
  "Memory type decay half-lives: `correction` 180 days, `general` 60 days.",
  "| `relation_type` | string | `related_to` (general link), `supports` (evidence) |",
].join("\n");

describe("the spec's facts", () => {
  it("takes the types from the tables' Rules cells and the half-lives from their sentence", () => {
    expect(parseSpecFacts(SPEC)).toEqual({
      memoryTypes: ["correction", "general"],
      relationTypes: ["related_to", "supports"],
      halfLifeDays: { correction: 180, general: 60 },
    });
  });

  it.each([
    ["the half-lives sentence is gone", SPEC.replace(/^Memory type decay.*$/m, "")],
    ["a type has no half-life", SPEC.replace(", `general` 60 days", "")],
    ["the relation row is gone", SPEC.replace(/^\| `relation_type`.*$/m, "")],
    ["a row lists no values", SPEC.replace(/`related_to`.*\|$/m, "none |")],
  ])("throws when %s", (_what, markdown) => {
    expect(() => parseSpecFacts(markdown)).toThrow(/^spec: /);
  });
});
