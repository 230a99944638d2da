/** Recall's sub-queries: a question joining names, once per name (worker/recall/sub-queries.ts). */
import { describe, expect, it } from "vitest";
import { subQueries } from "../../worker/recall/sub-queries";

describe("subQueries", () => {
  it.each([
    [
      "Which cities have both, Kate and Elise, been to?",
      ["Which cities have Kate, been to?", "Which cities have Elise, been to?"],
    ],
    [
      "What do Jon and Gina both have in common?",
      ["What do Jon have in common?", "What do Gina have in common?"],
    ],
    [
      "What do Jon, Gina, and Tim like?",
      ["What do Jon like?", "What do Gina like?", "What do Tim like?"],
    ],
    ["Where did Kate & Elise meet?", ["Where did Kate meet?", "Where did Elise meet?"]],
    [
      "Is Melanie's and Caroline's garden big?",
      ["Is Melanie's garden big?", "Is Caroline's garden big?"],
    ],
  ])("%s", (query, subs) => {
    expect(subQueries(query)).toEqual(subs);
  });

  it("splits at most three names, each once", () => {
    expect(subQueries("Did Ann, Bo, Cy and Di meet?")).toHaveLength(3);
    expect(subQueries("Did Ann and Ann meet?")).toEqual(["Did Ann meet?"]);
  });

  it("leaves a query without joined names alone", () => {
    for (const query of [
      "What is the capital of France?",
      "Kate likes tea and coffee",
      "What did I and Kate do?",
      "What happened in May and June?",
      "cats and dogs",
      "",
    ])
      expect(subQueries(query)).toEqual([]);
  });

  it("leaves a long text alone: it is a document, not a question", () => {
    expect(subQueries(`Kate and Elise ${"went out again ".repeat(30)}`)).toEqual([]);
  });
});
