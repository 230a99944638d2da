/**
 * POST /v1/recall against a brute-force reference (fixtures.ts) with the suite's lexical
 * embedder: over fewer memories than the candidate pools and over more.
 */
import { describe, it } from "vitest";
import { expectReferenceRanking, type RankingCase } from "./fixtures";

describe("POST /v1/recall: brute-force reference ranking", () => {
  // [query, limit, memories stored, embedder] — two of them are deleted by the fixture.
  const cases: RankingCase[] = [
    ["coffee roast schedule for the morning kitchen", 40, 40, "lexical"],
    ["espresso morning", 40, 40, "lexical"],
    ["coffee roast schedule for the morning kitchen", 8, 40, "lexical"],
    // Larger than the candidate pools (50 per index): a memory with a high access boost but
    // middling relevance must still rank where brute force puts it.
    ["coffee roast schedule for the morning kitchen", 10, 200, "lexical"],
    ["espresso morning", 10, 200, "lexical"],
  ];
  it.each(cases)(
    "query %j with limit %i over %i memories (%s) ranks exactly like scoring every memory",
    expectReferenceRanking,
  );
});
