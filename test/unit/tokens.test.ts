/** The token estimate every response's token counts use (worker/lib/tokens.ts). */
import { describe, expect, it } from "vitest";
import { countTokens } from "../../worker/lib/tokens";

describe("tokens: countTokens", () => {
  it("counts words by 4 letters, numbers by 3 digits, and each other symbol as one", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("   \n\t ")).toBe(0);
    expect(countTokens("abcd")).toBe(1);
    expect(countTokens("hello")).toBe(2);
    expect(countTokens("hello world")).toBe(4);
    expect(countTokens("123")).toBe(1);
    expect(countTokens("12345")).toBe(2);
    expect(countTokens("a, b!")).toBe(4);
    expect(countTokens("abc123")).toBe(2);
    expect(countTokens("héllo wörld")).toBe(4);
    expect(countTokens("日本語")).toBe(1);
    expect(countTokens("👍")).toBe(1);
    expect(countTokens("x".repeat(400))).toBe(100);
  });
});
