/** prompts.ts: reading a model's answer, and normalising the facts in it. */
import { describe, expect, it } from "vitest";
import { normaliseFacts, parseJsonLoose } from "../../worker/llm/prompts";

describe("prompts: reading and normalising answers", () => {
  it("parses JSON as is, in a fence, or inside prose", () => {
    expect(parseJsonLoose('{"a": 1}')).toEqual({ a: 1 });
    expect(parseJsonLoose('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(parseJsonLoose('Sure! {"a": "}{", "b": {"c": 2}} Hope that helps.')).toEqual({
      a: "}{",
      b: { c: 2 },
    });
    expect(parseJsonLoose("no json here")).toBeUndefined();
    expect(parseJsonLoose('{"a": ')).toBeUndefined();
  });

  it("normalises types and importance, drops empty and repeated facts", () => {
    expect(
      normaliseFacts([
        { content: "  The user   prefers tea  ", memory_type: "Preference", importance: 0.7 },
        { content: "We decided to ship on Monday", memory_type: "personal", importance: "high" },
        { content: "The office is in Leeds", importance: "0.3" },
        { content: "Way too important", memory_type: "general", importance: 7 },
        { content: "   ", memory_type: "general", importance: 0.5 },
        { content: "the user prefers TEA!", memory_type: "general", importance: 0.5 },
      ]),
    ).toEqual([
      { content: "The user prefers tea", memory_type: "preference", importance: 0.7 },
      { content: "We decided to ship on Monday", memory_type: "decision", importance: 0.9 },
      { content: "The office is in Leeds", memory_type: "general", importance: 0.3 },
      { content: "Way too important", memory_type: "general", importance: 1 },
    ]);
    const [long] = normaliseFacts([{ content: "word ".repeat(3000) }]);
    expect(long?.content.length).toBeLessThanOrEqual(8192);
  });

  it("makes a model's text storable: NUL dropped, an unpaired surrogate replaced", () => {
    expect(normaliseFacts([{ content: "The user\u0000 likes \ud800tea" }])).toEqual([
      { content: "The user likes \ufffdtea", memory_type: "preference", importance: 0.8 },
    ]);
  });
});
