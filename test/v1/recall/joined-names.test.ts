/**
 * POST /v1/recall for a question that joins two names, with the production model: memories
 * about each name are found, not only those that mention both or the topic best
 * (worker/recall/sub-queries.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { bgeEndpoint, bgeWallet } from "../../bge-worker";
import type { Json } from "../../helpers";
import { recall } from "./fixtures";

const KATE_CITY = "Kate spent a week in Lisbon and loved the old town.";
const ELISE_CITY = "Elise flew to Tokyo for a conference last spring.";

beforeAll(() => {
  bgeEndpoint();
});

describe("POST /v1/recall: a question joining two names", () => {
  it("finds each name's memory, and returns every memory once", async () => {
    const w = bgeWallet();
    await w.storeMany([
      { content: KATE_CITY },
      { content: ELISE_CITY },
      { content: "Kate and Elise talked about their favourite films for hours." },
      { content: "Kate and Elise both enjoy baking sourdough bread on Sundays." },
      { content: "Kate and Elise met at university in their first year." },
      { content: "Kate and Elise argued about the best pizza topping." },
      { content: "Kate and Elise share a love of crossword puzzles." },
      { content: "Kate and Elise were both tired after the long week." },
      { content: "Elise bought a new bicycle for her commute." },
      { content: "Kate adopted a grey cat named Miso." },
      { content: "Kate is learning to play the cello." },
      { content: "Elise prefers green tea to coffee." },
    ]);
    const got = (
      await recall(w, { query: "Which cities have both Kate and Elise been to?", limit: 4 })
    ).memories as Json[];
    // Without the sub-queries, Lisbon ranked 8th: six memories naming both, and Tokyo (measured).
    const contents = got.map((m) => m.content);
    expect(contents).toContain(KATE_CITY);
    expect(contents).toContain(ELISE_CITY);
    expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
  });
});
