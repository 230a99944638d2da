/**
 * The local embedding process (local/embedder): where the model files are found and how
 * they are downloaded (from a fake Hugging Face hub serving the real files), and the process
 * itself.
 */
import { createReadStream, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startModelProcess } from "../../../local/embedder/launch";
import {
  checkFolder,
  findModel,
  HUB_REPO,
  MODEL_FILES,
  SHARED_MODEL_DIR,
} from "../../../local/embedder/model-files";
import { MODEL, quiet, removeTempDirs, tempDir } from "./fixtures";

afterAll(removeTempDirs);

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
