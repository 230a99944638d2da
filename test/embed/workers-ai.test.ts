/** The Workers AI embedder against a fake binding: batches, CLS pooling, bad output. */
import { describe, expect, it } from "vitest";
import { type AiRunner, WorkersAiEmbedder } from "../../worker/embed/workers-ai";
import { countTokens } from "../../worker/lib/tokens";
import { apiError } from "../providers";

describe("WorkersAiEmbedder", () => {
  /** A fake Ai binding: a deterministic vector per text, recording each batch's size. */
  function fakeAi(shape: (batch: string[]) => unknown = goodOutput) {
    const batches: number[] = [];
    const models: string[] = [];
    const poolings: string[] = [];
    const ai: AiRunner = {
      async run(model, input) {
        models.push(model);
        batches.push(input.text.length);
        poolings.push(input.pooling);
        return shape(input.text);
      },
    };
    return { ai, batches, models, poolings };
  }
  function goodOutput(batch: string[]) {
    const data = batch.map((text) => {
      const v = new Array<number>(384).fill(0);
      v[Number(text.split(" ")[1]) % 384] = 1;
      return v;
    });
    return { shape: [batch.length, 384], data };
  }

  it("embeds in batches of 100, in order, asking for CLS pooling", async () => {
    const { ai, batches, models, poolings } = fakeAi();
    const embedder = new WorkersAiEmbedder(ai);
    const texts = Array.from({ length: 250 }, (_, i) => `text ${i}`);
    const { vectors, tokens } = await embedder.embed(texts);
    expect(batches).toEqual([100, 100, 50]);
    expect(models).toEqual(Array(3).fill("@cf/baai/bge-small-en-v1.5"));
    // Workers AI's default is mean pooling, whose vectors the local model's (CLS) do not match.
    expect(poolings).toEqual(["cls", "cls", "cls"]);
    expect(embedder.model).toBe("@cf/baai/bge-small-en-v1.5");
    expect(vectors).toHaveLength(250);
    vectors.forEach((v, i) => {
      expect(v).toHaveLength(384);
      expect(v[i % 384]).toBe(1);
    });
    expect(tokens).toBe(texts.reduce((s, t) => s + countTokens(t), 0));
  });

  it("rejects output of the wrong shape", async () => {
    const bad: Array<(batch: string[]) => unknown> = [
      () => null,
      () => ({ data: "nope" }),
      (batch) => ({ data: batch.map(() => new Array<number>(383).fill(0.1)) }),
      (batch) => ({ data: batch.slice(1).map(() => new Array<number>(384).fill(0.1)) }),
      (batch) => ({ data: batch.map(() => new Array<number>(384).fill(0)) }),
    ];
    for (const shape of bad) {
      const err = await apiError(new WorkersAiEmbedder(fakeAi(shape).ai).embed(["a", "b"]));
      expect(err.code).toBe("BAD_GATEWAY");
    }
  });

  it("refuses vectors made with another pooling than CLS", async () => {
    const unit = () => new Array<number>(384).fill(1 / Math.sqrt(384));
    const withPooling = (pooling: string) => (batch: string[]) => ({
      data: batch.map(unit),
      pooling,
    });
    const mean = await apiError(new WorkersAiEmbedder(fakeAi(withPooling("mean")).ai).embed(["a"]));
    expect(mean.code).toBe("BAD_GATEWAY");
    expect(mean.message).toContain("mean pooling, not cls");
    const cls = await new WorkersAiEmbedder(fakeAi(withPooling("cls")).ai).embed(["a"]);
    expect(cls.vectors).toHaveLength(1);
    expect(cls.vectors[0]?.[0]).toBeCloseTo(1 / Math.sqrt(384), 12);
  });

  it("reports a failing binding as BAD_GATEWAY", async () => {
    const ai: AiRunner = {
      run: async () => {
        throw new Error("3040: capacity exceeded");
      },
    };
    const err = await apiError(new WorkersAiEmbedder(ai).embed(["a"]));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toContain("capacity exceeded");
  });
});
