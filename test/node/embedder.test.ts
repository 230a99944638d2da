/**
 * The local embedding process (scripts/embedder) in plain Node: the model against its
 * reference values, the batcher, the HTTP API, where the files are found and how they are
 * downloaded (from a fake Hugging Face hub serving the real files), and the process itself.
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Batcher } from "../../scripts/embedder/batcher";
import { BgeModel } from "../../scripts/embedder/bge";
import { startModelProcess } from "../../scripts/embedder/launch";
import {
  checkFolder,
  findModel,
  HUB_REPO,
  MODEL_FILES,
  SHARED_MODEL_DIR,
} from "../../scripts/embedder/model-files";
import { startEmbeddingServer } from "../../scripts/embedder/server";

const MODEL = "@cf/baai/bge-small-en-v1.5";
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
};
const quiet = () => {};
const tempDir = () => mkdtempSync(join(tmpdir(), "embedder-test-"));

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
    expect(g.runs).toEqual([["a"], ["b", "c", "d"]]);
    g.release();
    expect(await second).toEqual(["v:b", "v:c"]);
    expect(await third).toEqual(["v:d"]);
    expect(batcher.stats).toEqual({ requests: 3, runs: 2, texts: 4 });
  });

  it("keeps runs under maxTexts with whole requests, and fails only the requests of a failed run", async () => {
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
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect(calls).toBe(3);
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

/** Serves the model files the way huggingface.co does (a redirect to a CDN path). */
async function fakeHub(opts: { corrupt?: string } = {}): Promise<{ url: string; server: Server }> {
  const prefix = `/${HUB_REPO}/resolve/main/`;
  const server = createServer((req, res) => {
    const path = req.url ?? "";
    if (path.startsWith(prefix)) {
      res.writeHead(302, { location: `/cdn/${path.slice(prefix.length)}` });
      res.end();
      return;
    }
    const file = path.replace(/^\/cdn\//, "");
    if (!path.startsWith("/cdn/") || !MODEL_FILES.some((f) => f.path === file)) {
      res.writeHead(404).end();
      return;
    }
    const local = join(SHARED_MODEL_DIR, file);
    res.writeHead(200, { "content-length": statSync(local).size });
    if (file === opts.corrupt) {
      const bytes = readFileSync(local);
      bytes[100] = (bytes[100] ?? 0) ^ 0xff;
      res.end(bytes);
    } else {
      createReadStream(local).pipe(res);
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("finding the model files", () => {
  it("holds the shared copy to the pinned hashes", async () => {
    expect(await checkFolder(SHARED_MODEL_DIR)).toBeUndefined();
    expect(await checkFolder(tempDir())).toBe("onnx/model.onnx missing");
  });

  it("takes EMBEDDING_MODEL_DIR first, then the shared copy, then the cache", async () => {
    const empty = tempDir();
    const first = await findModel({
      env: { EMBEDDING_MODEL_DIR: SHARED_MODEL_DIR },
      progress: quiet,
      sharedDir: empty,
    });
    expect(first).toMatchObject({ ok: true, model: { source: "EMBEDDING_MODEL_DIR" } });

    const shared = await findModel({ env: { EMBEDDING_MODEL_DIR: empty }, progress: quiet });
    expect(shared).toMatchObject({ ok: true, model: { source: "../shared/models" } });
    expect(shared.ok && shared.skipped[0]).toContain("EMBEDDING_MODEL_DIR");

    const cached = await findModel({
      env: {},
      progress: quiet,
      sharedDir: empty,
      cacheDir: SHARED_MODEL_DIR,
    });
    expect(cached).toMatchObject({ ok: true, model: { source: "cache .data/models" } });
  });

  it("downloads into the cache with progress, checking every file's sha256", async () => {
    const hub = await fakeHub();
    const cache = tempDir();
    const lines: string[] = [];
    try {
      const found = await findModel({
        env: { HF_ENDPOINT: hub.url },
        progress: (line, final) => {
          if (final) lines.push(line);
        },
        sharedDir: tempDir(),
        cacheDir: cache,
      });
      expect(found).toMatchObject({ ok: true, model: { dir: cache } });
      expect(found.ok && found.model.source).toBe(`downloaded from ${hub.url}/${HUB_REPO}`);
      expect(await checkFolder(cache)).toBeUndefined();
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^onnx\/model\.onnx \[#{30}\] 100% 133\.1\/133\.1 MB/);
    } finally {
      hub.server.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it("refuses a downloaded file whose sha256 differs, and says why when nothing works", async () => {
    const hub = await fakeHub({ corrupt: "tokenizer.json" });
    const cache = tempDir();
    try {
      const found = await findModel({
        env: { HF_ENDPOINT: hub.url },
        progress: quiet,
        sharedDir: tempDir(),
        cacheDir: cache,
      });
      expect(found.ok).toBe(false);
      const tried = found.ok ? [] : found.tried;
      expect(tried).toHaveLength(4);
      expect(tried[0]).toBe("EMBEDDING_MODEL_DIR: not set");
      expect(tried[3]).toMatch(/tokenizer\.json: sha256 [0-9a-f]{64}, expected d241a60d/);
      expect(await checkFolder(cache)).toBe("tokenizer.json missing");
    } finally {
      hub.server.close();
      rmSync(cache, { recursive: true, force: true });
    }
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const offline = await findModel({
      env: { HF_ENDPOINT: `http://127.0.0.1:${port}` },
      progress: quiet,
      sharedDir: tempDir(),
      cacheDir: tempDir(),
    });
    expect(offline.ok ? "" : offline.tried[3]).toMatch(/fetch failed \(.*ECONNREFUSED/);
  });
});

describe("the embedding process", () => {
  it("serves production's model name and stops when asked", async () => {
    const started = await startModelProcess();
    if (!started.ok) throw new Error(started.reason);
    const p = started.process;
    try {
      expect(p.model).toBe(MODEL);
      const res = await fetch(`${p.url}/embeddings`, {
        method: "POST",
        body: JSON.stringify({ model: MODEL, input: ["The cat sits on the mat"] }),
      });
      const body = (await res.json()) as { data: Array<{ embedding: number[] }> };
      expect(body.data[0]?.embedding[0]).toBeCloseTo(0.03429, 4);
    } finally {
      await p.stop();
    }
    await expect(fetch(`${p.url}/embeddings`, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("reports why it cannot serve", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const started = await startModelProcess({ port });
      expect(started.ok).toBe(false);
      expect(started.ok ? "" : started.reason).toContain("EADDRINUSE");
    } finally {
      blocker.close();
    }
  });
});
