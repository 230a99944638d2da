/**
 * The chunking of long input (worker/ingest/chunk.ts): text and conversations cut into pieces a
 * language model can read in one call.
 */
import { describe, expect, it } from "vitest";
import { chunkConversation, chunkText } from "../../worker/ingest/chunk";

describe("chunking", () => {
  it("cuts text on paragraphs, then lines, then sentences, packing up to the size", () => {
    const para = (n: number) => `Paragraph ${n} sentence one. Sentence two of ${n}.`;
    const text = [para(1), para(2), para(3)].join("\n\n");
    expect(chunkText(text, 10_000)).toEqual([text]);
    expect(chunkText(text, 100)).toEqual([`${para(1)}\n\n${para(2)}`, para(3)]);
    const long = Array.from({ length: 50 }, (_, i) => `Sentence ${i} is here.`).join(" ");
    const chunks = chunkText(long, 100);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(100);
    expect(chunks.join(" ")).toBe(long);
    // A single word longer than the size is cut hard.
    expect(chunkText("x".repeat(250), 100).map((c) => c.length)).toEqual([100, 100, 50]);
  });

  it("packs whole messages, splitting only a message over the size", () => {
    const m = (role: string, n: number) => ({ role, content: "a".repeat(n) });
    const groups = chunkConversation(
      [m("user", 30), m("assistant", 30), m("user", 50), m("user", 250)],
      100,
    );
    expect(groups.map((g) => g.map((x) => [x.role, x.content.length]))).toEqual([
      [
        ["user", 30],
        ["assistant", 30],
      ],
      [["user", 50]],
      [["user", 100]],
      [["user", 100]],
      [["user", 50]],
    ]);
  });
});
