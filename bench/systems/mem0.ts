/**
 * Mem0's open-source TypeScript SDK (npm `mem0ai`, `mem0ai/oss`), in process, configured to
 * be compared with the service on equal terms:
 *
 * - embedder: its `openai` provider pointed at embed-server.ts on 127.0.0.1, which serves our
 *   local embedder's vectors (384 dimensions; Mem0 sends `dimensions: 384` because
 *   `embeddingDims` is set, and the server refuses any other value), so both systems rank
 *   with identical embeddings;
 * - vector store: `memory`, Mem0's local store (SQLite through better-sqlite3), in memory
 *   (`dbPath: ":memory:"`), dimension 384;
 * - history: disabled (`disableHistory`); no reranker; no graph store;
 * - `add(…, {infer: false})`: every message is stored verbatim, no language model involved.
 *   Mem0 still builds an LLM client at construction, so it is pointed at the same local
 *   server, whose chat endpoint answers 501 and counts calls (the report shows 0);
 * - telemetry off: MEM0_TELEMETRY=false must be set before the module loads (it is read at
 *   import time), and MEM0_DIR points at a temporary folder so nothing is written to ~/.mem0.
 *
 * Search is Mem0's own: cosine over every stored vector of the user, plus its BM25 over
 * lemmatised text and entity boosts, fused by its scoreAndRank. `threshold: 0` so it always
 * returns `topK` results, as the service does (its default 0.1 could only shorten the list).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbedServer } from "./embed-server";

type Mem0Module = typeof import("mem0ai/oss");
type Mem0Memory = InstanceType<Mem0Module["Memory"]>;

let loaded: Promise<Mem0Module | string> | undefined;
let mem0Dir: string | undefined;

/** The SDK, or the reason it cannot be used (so the bench can skip Mem0 with a message). */
export function loadMem0(): Promise<Mem0Module | string> {
  loaded ??= (async () => {
    process.env.MEM0_TELEMETRY = "false";
    mem0Dir = mkdtempSync(join(tmpdir(), "bench-mem0-"));
    process.env.MEM0_DIR = mem0Dir;
    try {
      return await import("mem0ai/oss");
    } catch (err) {
      return `mem0ai could not be loaded (${err instanceof Error ? err.message : err}); run npm install`;
    }
  })();
  return loaded;
}

/** The installed version (the package's exports do not include its package.json). */
export function mem0Version(): string {
  try {
    const file = new URL("../../node_modules/mem0ai/package.json", import.meta.url);
    return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

export function cleanupMem0(): void {
  if (mem0Dir) rmSync(mem0Dir, { recursive: true, force: true });
}

export interface Mem0Store {
  /** Stores texts verbatim (one memory each) for a user; ids in input order. */
  add(userId: string, texts: string[], metadata?: Record<string, unknown>): Promise<string[]>;
  search(userId: string, query: string, k: number): Promise<Array<{ id: string; memory: string }>>;
}

/** A fresh Mem0 instance with its own in-memory SQLite store. */
export async function createMem0(mod: Mem0Module, embed: EmbedServer): Promise<Mem0Store> {
  const memory: Mem0Memory = new mod.Memory({
    version: "v1.1",
    embedder: {
      provider: "openai",
      config: {
        apiKey: "local-no-key",
        baseURL: embed.baseUrl,
        model: embed.model,
        embeddingDims: 384,
      },
    },
    vectorStore: {
      provider: "memory",
      config: { collectionName: "bench", dimension: 384, dbPath: ":memory:" },
    },
    llm: {
      provider: "openai",
      config: { apiKey: "local-no-key", baseURL: embed.baseUrl, model: "none" },
    },
    disableHistory: true,
  });
  return {
    async add(userId, texts, metadata) {
      const out = await memory.add(
        texts.map((content) => ({ role: "user", content })),
        { userId, infer: false, metadata },
      );
      const ids = out.results.map((r) => r.id);
      if (ids.length !== texts.length) {
        throw new Error(`mem0 stored ${ids.length} of ${texts.length} messages`);
      }
      return ids;
    },
    async search(userId, query, k) {
      const out = await memory.search(query, {
        topK: k,
        threshold: 0,
        filters: { user_id: userId },
      });
      return out.results.map((r) => ({ id: r.id, memory: r.memory }));
    },
  };
}
