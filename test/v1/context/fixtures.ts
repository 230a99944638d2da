/** What the POST /v1/context tests share: the call, with the checks every answer must pass. */
import { expect } from "vitest";
import { countTokens } from "../../../worker/lib/tokens";
import { SUMMARY_KEYS } from "../../fixtures";
import type { Json, Wallet } from "../../helpers";

export const HEADER = "Relevant memories:";

export async function context(w: Wallet, body: Record<string, unknown> = {}): Promise<Json> {
  const res = await w.post("/v1/context", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["context", "memories", "memories_used", "tokens"]);
  const block = res.body.context;
  const text = typeof block === "string" ? block : JSON.stringify(block);
  expect(res.body.tokens).toBe(countTokens(text));
  // Client extra: the memories used, one per memory counted, in a short shape without nulls
  // (the public MCP server requires id and content and refuses nulls).
  expect(res.body.memories).toHaveLength(res.body.memories_used);
  for (const m of res.body.memories) {
    expect(Object.keys(m).sort()).toEqual(USED_MEMORY_KEYS);
    for (const value of Object.values(m)) expect(value).not.toBeNull();
    if (typeof block === "string") expect(block).toContain(m.content);
  }
  return res.body;
}

const USED_MEMORY_KEYS = [...SUMMARY_KEYS, "pinned"].sort();

/** The lines of a text block after the header, checked to be one per memory. */
export function bodyLines(block: string, count: number): string[] {
  const lines = block.split("\n");
  expect(lines[0]).toBe(HEADER);
  expect(lines).toHaveLength(count + 1);
  for (const line of lines.slice(1)) expect(line.startsWith("- ")).toBe(true);
  return lines.slice(1);
}

/** Index of the memory (by content) each line of a text block shows. */
export function lineOrder(lines: string[], contents: string[]): number[] {
  return lines.map((line) => {
    const matches = contents.flatMap((c, i) => (line.includes(c) ? [i] : []));
    expect(matches, line).toHaveLength(1);
    return matches[0] as number;
  });
}

/** A memory to store: the body of its store request. */
export type Seed = { content: string } & Record<string, unknown>;

/**
 * Stores the memories in order, a few ms apart (so their created_at strictly increases), each
 * a new one; returns their ids and contents in that order.
 */
export async function seed(w: Wallet, memories: Seed[]) {
  const ids = await w.storeEach(memories, { pauseMs: 5 });
  return { ids, contents: memories.map((m) => m.content) };
}
