/**
 * POST /v1/context with summarize: true merges similar memories into one entry with the
 * rules provider, in the text and structured blocks, with and without a query, leaving the
 * stored memories unchanged (limits.test.ts: distinct facts are never merged).
 */
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../worker/embed/local";
import { cosine } from "../../../worker/embed/vector";
import { countTokens } from "../../../worker/lib/tokens";
import { RulesProvider } from "../../../worker/llm/rules";
import { type Json, newWallet } from "../../helpers";

describe("POST /v1/context with summarize", () => {
  it("merges similar memories into one entry with the provider", async () => {
    const w = newWallet();
    const a = "Our staging cluster runs Kubernetes 1.29 on three nodes";
    const b = "The staging cluster runs Kubernetes 1.29 on three nodes in the basement";
    const c = "The office coffee machine is descaled on Fridays";
    const { vectors } = await new LocalEmbedder().embed([a, b]);
    const ab = cosine(vectors[0] ?? [], vectors[1] ?? []);
    expect(ab).toBeGreaterThanOrEqual(0.85);
    expect(ab).toBeLessThan(0.95);
    const idA = await w.store(a, { importance: 0.9, memory_type: "project", tags: ["k8s"] });
    const idB = await w.store(b, { importance: 0.8, tags: ["infra"] });
    const idC = await w.store(c, { importance: 0.5 });

    const plain = await w.post("/v1/context", {});
    expect(plain.body.memories_used).toBe(3);
    expect(plain.body.context.split("\n")).toHaveLength(4);

    const merged = (await new RulesProvider().synthesize([a, b])).content;
    expect(merged).toBe(`${a}. ${b}.`);
    const text = await w.post("/v1/context", { summarize: true });
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    expect(text.body.memories_used).toBe(3);
    expect(text.body.context).toBe(
      [
        "Relevant memories:",
        `- [project, importance 0.9] ${merged} (tags: k8s, infra)`,
        `- [general, importance 0.5] ${c}`,
      ].join("\n"),
    );
    expect(text.body.tokens).toBe(countTokens(text.body.context));
    // `memories` lists the stored memories the block draws on, a merged entry's members each
    // with its own stored text.
    expect(text.body.memories.map((m: Json) => [m.id, m.content])).toEqual([
      [idA, a],
      [idB, b],
      [idC, c],
    ]);

    const structured = await w.post("/v1/context", { summarize: true, format: "structured" });
    expect(structured.body.context.memories).toEqual([
      {
        content: merged,
        importance: 0.9,
        memory_type: "project",
        tags: ["k8s", "infra"],
        source: `memories:${idA},${idB}`,
      },
      {
        content: c,
        importance: 0.5,
        memory_type: "general",
        tags: [],
        source: `memory:${idC}`,
      },
    ]);

    // With a query: the merged entry's members all count as used.
    const queried = await w.post("/v1/context", {
      query: "staging cluster nodes",
      summarize: true,
    });
    expect(queried.status).toBe(200);
    expect(queried.body.context.split("\n")).toHaveLength(3);
    expect(queried.body.context).toContain("in the basement.");
    expect(queried.body.memories_used).toBe(3);

    // The stored memories are unchanged.
    expect((await w.get(`/v1/memories/${idA}`)).body.content).toBe(a);
    expect((await w.get(`/v1/memories/${idB}`)).body.content).toBe(b);
  });
});
