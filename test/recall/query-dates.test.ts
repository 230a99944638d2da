/** Recall's keyword query: the dates people type, written out as memories write them. */
import { describe, expect, it } from "vitest";
import { keywordQuery } from "../../worker/recall/query-dates";

describe("keywordQuery", () => {
  it.each([
    ["Which recipe did Paola try on 21.01.2024?", "Which recipe did Paola try on 21 January 2024?"],
    ["What happened on 2024-01-21?", "What happened on 21 January 2024?"],
    ["Lunch on 1/21/2024 and 21/1/24", "Lunch on 21 January 2024 and 21 January 2024"],
    ["Did Elise spend 7 Jan 2024 alone?", "Did Elise spend 7 January 2024 alone?"],
    ["What did he get on Aug 15th?", "What did he get on August 15?"],
    ["the 8th of Dec. 2023", "the 8 of December 2023"],
    ["on 8th December, 2023", "on 8 December, 2023"],
    [
      "Where is Paola going on the 10th of February 2024?",
      "Where is Paola going on the 10 of February 2024?",
    ],
  ])("%s", (query, written) => {
    expect(keywordQuery(query)).toBe(written);
  });

  it("leaves what is not surely a date alone", () => {
    for (const text of [
      "What did Jan say about the trip?",
      "Janet moved in March",
      "version 1.2.3 of the app",
      "scores 31.13.2024 and 2024-13-01",
      "her 18th birthday",
      "mid-decade plans",
    ]) {
      expect(keywordQuery(text)).toBe(text);
    }
  });
});
