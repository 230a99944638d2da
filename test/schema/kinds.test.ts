/** The memory and relation types the schema declares (schema/kinds.ts) are the spec's, in its order. */
import { describe, expect, it } from "vitest";
import { MEMORY_TYPES, RELATION_TYPES } from "../../schema/kinds";
import { spec } from "../spec/facts";

describe("schema: the kinds", () => {
  it("declares the spec's memory types", () => {
    expect([...MEMORY_TYPES]).toEqual(spec.memoryTypes);
  });

  it("declares the spec's relation types", () => {
    expect([...RELATION_TYPES]).toEqual(spec.relationTypes);
  });
});
