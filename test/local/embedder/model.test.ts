/**
 * The local embedding process (local/embedder) in plain Node: the model against its
 * reference values, the batcher and the HTTP API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Batcher } from "../../../local/embedder/batcher";
import { BgeModel } from "../../../local/embedder/bge";
import { SHARED_MODEL_DIR } from "../../../local/embedder/model-files";
import { startEmbeddingServer } from "../../../local/embedder/server";
import { dot, MODEL } from "./fixtures";

describe("BgeModel", () => {
  let model: BgeModel;
  beforeAll(async () => {
    model = await BgeModel.load(SHARED_MODEL_DIR);
  });
  afterAll(() => model.close());

  it("reproduces the model README's reference values (CLS pooling, L2 norm)", async () => {
    const [cat, paraphrase] = await model.embed([
      "The cat sits on the mat",
      "A cat is sitting on a mat",
    ]);
    if (!cat || !paraphrase) throw new Error("no vectors");
    expect(cat).toHaveLength(384);
    expect(dot(cat, cat)).toBeCloseTo(1, 5);
    const reference = [0.03429, -0.02205, 0.00733, 0.05193, -0.02372];
    for (const [i, x] of reference.entries()) {
      expect(Math.abs((cat[i] ?? 0) - x)).toBeLessThan(5e-5);
    }
    expect(dot(cat, paraphrase)).toBeCloseTo(0.981, 3);
  });

  it("gives a text the same vector alone and in a padded batch", async () => {
    const short = "Dark mode";
    const [alone] = await model.embed([short]);
    const [inBatch] = await model.embed([short, "a much longer sentence ".repeat(20)]);
    if (!alone || !inBatch) throw new Error("no vectors");
    expect(dot(alone, inBatch)).toBeGreaterThan(0.99999);
  });

  it("reads at most 512 tokens, ending in [SEP], like the production model", async () => {
    const long = "The quarterly planning meeting moved to Thursday. ".repeat(80);
    const ids = model.tokenize(long);
    expect(ids).toHaveLength(512);
    expect(ids[0]).toBe(101);
    expect(ids[511]).toBe(102);
    const [a, b] = await model.embed([long, `${long} And then something else entirely.`]);
    if (!a || !b) throw new Error("no vectors");
    expect(dot(a, b)).toBeGreaterThan(0.99999);
  });
});

describe("Batcher", () => {
  /** An embed function whose runs finish only when the test releases them. */
  function gated() {
    const runs: string[][] = [];
    const releases: Array<() => void> = [];
    const run = (texts: string[]) => {
      runs.push(texts);
      return new Promise<string[]>((resolve) => {
        releases.push(() => resolve(texts.map((t) => `v:${t}`)));
      });
    };
    return { run, runs, release: () => releases.shift()?.() };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it("runs the requests that arrive during a run together, each getting its own vectors", async () => {
    const g = gated();
    const batcher = new Batcher(g.run);
    const first = batcher.embed(["a"]);
    const second = batcher.embed(["b", "c"]);
    const third = batcher.embed(["d"]);
    await tick();
    expect(g.runs).toEqual([["a"]]);
    g.release();
    expect(await first).toEqual(["v:a"]);
    await tick();
    // The smallest request first.
    expect(g.runs).toEqual([["a"], ["d", "b", "c"]]);
    g.release();
    expect(await second).toEqual(["v:b", "v:c"]);
    expect(await third).toEqual(["v:d"]);
    expect(batcher.stats).toEqual({ requests: 3, runs: 2, texts: 4 });
  });

  it("splits a large request across runs, so a query waits for at most one run", async () => {
    const g = gated();
    const batcher = new Batcher(g.run, 4);
    const texts = Array.from({ length: 10 }, (_, i) => `t${i}`);
    let bigDone = false;
    const big = batcher.embed(texts).then((v) => {
      bigDone = true;
      return v;
    });
    await tick();
    const query = batcher.embed(["q"]);
    g.release();
    await tick();
    expect(g.runs[1]).toEqual(["q", "t4", "t5", "t6"]);
    g.release();
    expect(await query).toEqual(["v:q"]);
    expect(bigDone).toBe(false);
    await tick();
    g.release();
    expect(await big).toEqual(texts.map((t) => `v:${t}`));
    expect(g.runs).toEqual([
      ["t0", "t1", "t2", "t3"],
      ["q", "t4", "t5", "t6"],
      ["t7", "t8", "t9"],
    ]);
  });

  it("fails the requests with texts in a failed run, and no other", async () => {
    let calls = 0;
    const batcher = new Batcher(async (texts: string[]) => {
      calls += 1;
      if (texts.includes("boom")) throw new Error("model failed");
      return texts;
    }, 2);
    const results = await Promise.allSettled([
      batcher.embed(["a", "b"]),
      batcher.embed(["boom", "c"]),
      batcher.embed(["d"]),
      batcher.embed([]),
    ]);
    // Runs: [a, b]; then the smallest first: [d, boom] fails d and the boom request.
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "rejected",
      "fulfilled",
    ]);
    expect(results[0]).toMatchObject({ value: ["a", "b"] });
    expect(calls).toBe(2);
  });
});

describe("the embeddings API", () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // A stand-in model: the vector's first component is the text's length.
    const batcher = new Batcher<Float32Array>(async (texts: string[]) =>
      texts.map((t) => Float32Array.from({ length: 384 }, (_, i) => (i === 0 ? t.length : 0.5))),
    );
    const server = await startEmbeddingServer({ batcher, model: MODEL, source: "test", port: 0 });
    url = server.url;
    close = server.close;
  });
  afterAll(() => close());

  const post = (body: unknown) =>
    fetch(`${url}/embeddings`, { method: "POST", body: JSON.stringify(body) });

  it("answers in input order as floats or base64 float32, without usage", async () => {
    const res = await post({ model: MODEL, input: ["abc", "abcdef"], dimensions: 384 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      model: string;
      data: Array<{ index: number; embedding: number[] }>;
    };
    expect(body.model).toBe(MODEL);
    expect(body.data.map((d) => [d.index, d.embedding[0], d.embedding.length])).toEqual([
      [0, 3, 384],
      [1, 6, 384],
    ]);
    expect(body).not.toHaveProperty("usage");

    const b64 = await post({ input: "abcd", encoding_format: "base64" });
    const { data } = (await b64.json()) as { data: Array<{ embedding: string }> };
    const raw = Buffer.from(data[0]?.embedding ?? "", "base64");
    const floats = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    expect(floats[0]).toBe(4);
    expect(floats).toHaveLength(384);
  });

  it("refuses another model name, other dimensions and malformed input", async () => {
    const other = await post({ model: "text-embedding-3-small", input: "x" });
    expect(other.status).toBe(404);
    expect(JSON.stringify(await other.json())).toContain(MODEL);
    expect((await post({ input: "x", dimensions: 1536 })).status).toBe(400);
    expect((await post({ input: [1, 2] })).status).toBe(400);
    const notJson = await fetch(`${url}/embeddings`, { method: "POST", body: "{" });
    expect(notJson.status).toBe(400);
    expect((await fetch(`${url}/chat/completions`, { method: "POST", body: "{}" })).status).toBe(
      404,
    );
  });
});
