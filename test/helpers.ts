/**
 * Integration harness: every test makes its own wallet (a fresh tenant) and talks HTTP to
 * the real Worker (SELF) backed by the real Postgres of the global setup.
 */
import { SELF } from "cloudflare:test";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { checkContract } from "./contract";

export const PREFIX = "service-auth";
const BASE = "http://memory.test";

export interface ApiResponse<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}
// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests.
export type Json = any;

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A text made of random made-up words, so that no two texts of a test are near-duplicates
 * (the store merges memories whose embeddings have cosine similarity >= 0.95).
 */
export function uniqueText(label = "note"): string {
  const word = () =>
    Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join(
      "",
    );
  return `${label} ${Array.from({ length: 6 }, word).join(" ")}`;
}

export async function signAuth(account: PrivateKeyAccount, ts = nowSeconds(), prefix = PREFIX) {
  const signature = await account.signMessage({ message: `${prefix}:${ts}` });
  return `${account.address}:${ts}:${signature}`;
}

/** How a test reaches the Worker: the suite's (SELF) unless a test configures its own. */
export type WorkerFetch = (url: string, init: RequestInit) => Promise<Response>;
const selfFetch: WorkerFetch = (url, init) => SELF.fetch(url, init);

export async function request<T = Json>(
  method: string,
  path: string,
  opts: {
    body?: unknown;
    rawBody?: BodyInit;
    headers?: Record<string, string>;
    fetch?: WorkerFetch;
    /** Skip the contract check: only for a fault the test injects on purpose (a 500). */
    unchecked?: boolean;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await (opts.fetch ?? selfFetch)(`${BASE}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // non-JSON bodies are returned as text so a test can assert on them
  }
  if (opts.unchecked) return { status: res.status, body: parsed as T, headers: res.headers };
  checkContract(
    method,
    new URL(path, BASE),
    res.status,
    res.headers.get("content-type") ?? "",
    parsed,
  );
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A fresh wallet and a client that signs every request with it. */
export function newWallet(workerFetch?: WorkerFetch) {
  const account = privateKeyToAccount(generatePrivateKey());
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    request(method, path, {
      body,
      headers: { "x-wallet-auth": await signAuth(account), ...headers },
      fetch: workerFetch,
    });
  const get = (path: string) => call("GET", path);
  const post = (path: string, body?: unknown) => call("POST", path, body);
  const storeNew = async (content: string, fields: Record<string, unknown> = {}) => {
    const res = await post("/v1/store", { content, ...fields });
    if (res.status !== 201 || res.body.deduplicated !== false) {
      throw new Error(`expected a new memory, got ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body.id as string;
  };
  const getMemory = async (id: string): Promise<Json> => {
    const res = await get(`/v1/memories/${id}`);
    if (res.status !== 200) throw new Error(`get ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    account,
    address: account.address,
    get,
    post,
    patch: (path: string, body?: unknown) => call("PATCH", path, body),
    del: (path: string, body?: unknown) => call("DELETE", path, body),
    call,
    /** A signed request whose body is sent as it is (malformed JSON, no body, odd bytes). */
    raw: async (
      method: string,
      path: string,
      rawBody?: BodyInit,
      headers: Record<string, string> = { "content-type": "application/json" },
    ) =>
      request(method, path, {
        rawBody,
        headers: { "x-wallet-auth": await signAuth(account), ...headers },
        fetch: workerFetch,
      }),
    /** GET `path`, which must answer 200; returns the body. */
    getOk: async (path: string): Promise<Json> => expectStatus(await get(path), 200),
    /** Stores one memory and returns its id. */
    async store(content: string, fields: Record<string, unknown> = {}): Promise<string> {
      const res = await post("/v1/store", { content, ...fields });
      if (res.status !== 201)
        throw new Error(`store failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    /** Stores a memory that must be a new one (not merged into another); returns its id. */
    storeNew,
    /**
     * Stores each text as a new memory with the same `fields`, one request after another (so
     * in this order of created_at); returns their ids in that order.
     */
    async storeAll(texts: readonly string[], fields: Record<string, unknown> = {}) {
      const stored: string[] = [];
      for (const text of texts) stored.push(await storeNew(text, fields));
      return stored;
    },
    /**
     * Stores each memory (the body of its store request) as a new one, one request after
     * another (so in this order of created_at), `pauseMs` apart when their created_at must
     * differ; returns their ids in that order.
     */
    async storeEach(
      items: ReadonlyArray<{ content: string } & Record<string, unknown>>,
      { pauseMs = 0 } = {},
    ) {
      const stored: string[] = [];
      for (const { content, ...fields } of items) {
        if (pauseMs > 0 && stored.length > 0) await sleep(pauseMs);
        stored.push(await storeNew(content, fields));
      }
      return stored;
    },
    /** Stores many memories (in batches of 100), none merged into another; returns their ids. */
    async storeMany(items: Array<Record<string, unknown>>): Promise<string[]> {
      const stored: string[] = [];
      for (let i = 0; i < items.length; i += 100) {
        const res = await post("/v1/store/batch", { memories: items.slice(i, i + 100) });
        if (res.status !== 201 || res.body.deduplicated_count !== 0) {
          throw new Error(`expected new memories, got ${res.status} ${JSON.stringify(res.body)}`);
        }
        stored.push(...(res.body.ids as string[]));
      }
      return stored;
    },
    /** GET /v1/memories/:id, which must answer 200. */
    getMemory,
    /**
     * The memory once its access_count has reached `count` (recall and context count
     * accesses after the response), or as it stands after about 5 s: the caller asserts on it.
     */
    async memoryAfterAccesses(id: string, count: number): Promise<Json> {
      let memory = await getMemory(id);
      for (let i = 0; i < 100 && memory.access_count < count; i++) {
        await sleep(50);
        memory = await getMemory(id);
      }
      return memory;
    },
    /** GET /v1/memories/count, which must answer 200 (`query` with its "?"). */
    memoryCount: async (query = ""): Promise<number> =>
      expectStatus(await get(`/v1/memories/count${query}`), 200).count,
    /**
     * Relates two memories (201) and returns the relation. `metadata` is left out of the
     * request unless given, so the default is exercised.
     */
    async relate(
      source: string,
      target: string,
      relationType = "related_to",
      metadata?: Record<string, unknown>,
    ): Promise<Json> {
      const res = await post(`/v1/memories/${source}/relations`, {
        target_id: target,
        relation_type: relationType,
        ...(metadata === undefined ? {} : { metadata }),
      });
      return expectStatus(res, 201);
    },
    relationsOf: async (id: string, query = ""): Promise<Json[]> =>
      expectStatus(await get(`/v1/memories/${id}/relations${query}`), 200).relations,
  };
}

export type Wallet = ReturnType<typeof newWallet>;

/** The ids of a response's `memories`, in order. */
export const ids = (body: Json): string[] => body.memories.map((m: Json) => m.id);

/** A sorted copy, to compare ids as sets. */
export const sorted = (list: string[]) => [...list].sort();

/** Timestamps as the API writes them (toISOString) and ids as Postgres returns them. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const MISSING_ID = "00000000-0000-4000-8000-000000000000";

/** The fields a 422's validation issues name (`error.details.issues[].path`). */
export const issuePaths = (res: ApiResponse): string[] =>
  res.body.error.details.issues.map((issue: { path: string }) => issue.path);

/** Asserts the documented error body and returns it. */
export function expectError(res: ApiResponse, status: number, code: string) {
  if (
    res.status !== status ||
    res.body?.error?.code !== code ||
    typeof res.body?.error?.message !== "string"
  ) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (typeof res.body.error.request_id !== "string") throw new Error("error body lacks request_id");
  return res.body.error;
}

/** Asserts the status (the body is shown when it differs) and returns the body. */
export function expectStatus(res: ApiResponse, status: number): Json {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** The Accept header POST /mcp asks for (MCP's Streamable HTTP transport). */
export const MCP_HEADERS = { accept: "application/json, text/event-stream" };

/** `w` calling the MCP tool `name` with `args`: one JSON-RPC tools/call over POST /mcp. */
export const callTool = (w: Pick<Wallet, "call">, name: string, args: object) =>
  w.call(
    "POST",
    "/mcp",
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    MCP_HEADERS,
  );
