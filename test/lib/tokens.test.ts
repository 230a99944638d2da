/** The token estimate every response's token counts use (worker/lib/tokens.ts). */
import { describe, expect, it } from "vitest";
import { countTokens } from "../../worker/lib/tokens";

describe("tokens: countTokens counts words by 4 letters, numbers by 3 digits, and each other symbol as one", () => {
  it.each([
    ["", 0],
    ["   \n\t ", 0],
    ["abcd", 1],
    ["hello", 2],
    ["hello world", 4],
    ["123", 1],
    ["12345", 2],
    ["a, b!", 4],
    ["abc123", 2],
    ["héllo wörld", 4],
    ["日本語", 1],
    ["👍", 1],
    ["x".repeat(400), 100],
  ])("%j → %i", (text, tokens) => {
    expect(countTokens(text)).toBe(tokens);
  });
});
