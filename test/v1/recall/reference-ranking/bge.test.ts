/**
 * POST /v1/recall against a brute-force reference (fixtures.ts) with production's model
 * (bge-small-en-v1.5, bge-worker.ts), whose cosines recall rescales by the query's median and
 * best (worker/recall/scoring.ts).
 */
import { describe, it } from "vitest";
import { expectReferenceRanking, type RankingCase } from "./fixtures";

describe("POST /v1/recall: brute-force reference ranking", () => {
  // [query, limit, memories stored, embedder] — two of them are deleted by the fixture.
  const cases: RankingCase[] = [
    // A semantic model's cosine is rescaled by the query's median and best (scoring.ts).
    ["coffee roast schedule for the morning kitchen", 8, 40, "bge"],
    ["espresso morning", 10, 200, "bge"],
  ];
  it.each(cases)(
    "query %j with limit %i over %i memories (%s) ranks exactly like scoring every memory",
    expectReferenceRanking,
  );
});
