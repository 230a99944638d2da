/** Sentence splitting (worker/llm/sentences.ts), which the rules provider reads text by. */
import { describe, expect, it } from "vitest";
import { splitSentences } from "../../worker/llm/sentences";

describe("splitSentences", () => {
  it("handles abbreviations, initials, decimals, ellipses and line breaks", () => {
    expect(
      splitSentences(
        "Mr. Smith went to Washington. He arrived at 5 p.m. Then he left! Did he? " +
          "Yes... and no. Version 1.2 is out. J. R. R. Tolkien wrote it, e.g. this one. " +
          "See No. 5 on the list.\nwrapped line\ncontinues here.\nNew line",
      ),
    ).toEqual([
      "Mr. Smith went to Washington.",
      "He arrived at 5 p.m.",
      "Then he left!",
      "Did he?",
      "Yes... and no.",
      "Version 1.2 is out.",
      "J. R. R. Tolkien wrote it, e.g. this one.",
      "See No. 5 on the list.",
      "wrapped line continues here.",
      "New line",
    ]);
    expect(splitSentences("")).toEqual([]);
    expect(splitSentences("  \n\n ")).toEqual([]);
  });
});
