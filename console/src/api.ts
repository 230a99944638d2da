/**
 * The console's only way to the service: the public HTTP API, same origin, with the session
 * token as `Authorization: Bearer` like any other client. Every failure becomes an ApiError
 * that carries the API's code, message and request id, so the UI can show all three.
 */
import type { z } from "@hono/zod-openapi";
import type { ChangeEvent as ChangeEventSchema } from "../../worker/changes/event";
import type {
  GrantList as GrantListSchema,
  Grant as GrantSchema,
} from "../../worker/routes/schemas/grant";
import { isShareable } from "./shareable";

export interface Memory {
  id: string;
  user_id?: string;
  namespace: string;
  content: string;
  metadata: Record<string, unknown>;
  tags?: string[];
  importance: number;
  memory_type: string;
  session_id: string | null;
  agent_id: string | null;
  pinned: boolean;
  immutable?: boolean;
  expires_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  accessed_at: string | null;
  access_count: number;
  embedding_model?: string | null;
  /** The wallet that stored it: the owner, or a wallet writing through a grant. */
  created_by: string;
  /** When the fact was said or became true (the store's `occurred_at`, else when stored). */
  occurred_at: string;
  /** The memories this one replaces (its `supersedes` relations), oldest relation first. */
  supersedes: string[];
  /** The live memory that replaces this one, or null while it is current. */
  superseded_by: string | null;
}

export interface MemoryPage {
  memories: Memory[];
  total: number;
  limit: number;
  offset: number;
}

export interface RecalledMemory {
  id: string;
  content: string;
  similarity: number;
  importance: number;
  namespace: string;
  memory_type: string;
  pinned: boolean;
  access_count: number;
  created_at: string;
  created_by: string;
  metadata: Record<string, unknown>;
  _signals: Record<string, number>;
}

export interface SearchHit {
  id: string;
  content: string;
  importance: number;
  memory_type: string;
  namespace: string;
  tags: string[];
  created_at: string;
  created_by: string;
}

export interface HistoryEntry {
  id: string;
  memory_id: string;
  changes: Record<string, unknown>;
  created_at: string;
  /** The wallet that made the change. */
  created_by: string;
}

/**
 * A namespace an owner shared with a grantee (POST/GET /v1/grants, GET /v1/grants/received):
 * the type of the API's own response schema (worker/routes/schemas/grant.ts), so the two cannot
 * drift apart. The import is type-only: the bundle holds none of the Worker's code.
 */
export type Grant = z.output<typeof GrantSchema>;
export type Permission = Grant["permission"];
/** GET /v1/grants and GET /v1/grants/received. */
export type GrantList = z.output<typeof GrantListSchema>;

/**
 * One event of the change feed (GET /v1/changes): the type of the API's own schema
 * (worker/changes/event.ts), type-only like Grant.
 */
export type ChangeEvent = z.output<typeof ChangeEventSchema>;
export type EventKind = ChangeEvent["kind"];

/** GET /v1/changes: the events after the cursor, oldest first. */
export interface ChangePage {
  changes: ChangeEvent[];
  next_cursor: string;
  has_more: boolean;
}

/** GET /v1/namespaces: the wallet's namespaces in name order, with their counts. */
export interface NamespaceList {
  namespaces: Array<{ name: string; count: number; last_memory_at: string }>;
  total: number;
}

export interface RelationListItem {
  id: string;
  source_id: string;
  target_id: string;
  relation_type: string;
  direction: "outgoing" | "incoming";
  created_at: string;
  memory?: { id: string; content: string; importance: number; deleted?: boolean };
}

export interface GraphNode {
  id: string;
  content: string;
  importance: number;
}

export interface GraphEdge {
  source_id: string;
  target_id: string;
  relation_type: string;
}

export interface Graph {
  root: GraphNode;
  nodes: GraphNode[];
  edges: GraphEdge[];
  depth: number;
}

export interface Job {
  id: string;
  kind: string;
  status: "queued" | "running" | "succeeded" | "failed";
  result: unknown;
  error: { code: string; message: string } | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

// The API's own lists, so a type added there shows up here.
export { MEMORY_TYPES, RELATION_TYPES } from "../../schema/kinds";

/** A failed call: the API's error body when there was one, else what the browser saw. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details?: unknown,
    /** Seconds, from Retry-After (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

/** `?a=1&b=x` from the parameters that have a value ("" and undefined are left out). */
export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function toApiError(res: Response): Promise<ApiError> {
  const headerId = res.headers.get("x-request-id");
  const retry = Number(res.headers.get("retry-after"));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  const text = await res.text().catch(() => "");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error) {
    return new ApiError(
      res.status,
      typeof error.code === "string" ? error.code : `HTTP_${res.status}`,
      typeof error.message === "string" ? error.message : res.statusText,
      typeof error.request_id === "string" ? error.request_id : headerId,
      error.details,
      retryAfter,
    );
  }
  const snippet = text.trim().slice(0, 200);
  return new ApiError(
    res.status,
    `HTTP_${res.status}`,
    snippet || res.statusText || "Request failed",
    headerId,
    undefined,
    retryAfter,
  );
}

export interface ApiOptions {
  /** The current session token, or null before sign-in. */
  token: () => string | null;
  /** Called when the API refuses the token (expired or from another deployment). */
  onUnauthorized?: (error: ApiError) => void;
  /**
   * The wallet whose shared namespace the console shows, or null for the caller's own
   * memories. Only the operations a grant opens get it (shareable.ts); every other call
   * (grants, free tier, jobs) is the caller's own whatever is shown.
   */
  owner?: () => string | null;
}

export class Api {
  constructor(private readonly options: ApiOptions) {}

  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    init: { signal?: AbortSignal; anonymous?: boolean } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    const token = init.anonymous ? null : this.options.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const owner = init.anonymous ? null : (this.options.owner?.() ?? null);
    const url = owner && isShareable(method, path) ? withOwner(path, owner) : path;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: init.signal,
        credentials: "omit",
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw new ApiError(0, "NETWORK_ERROR", `The service did not answer (${reason})`, null);
    }
    if (!res.ok) {
      const error = await toApiError(res);
      // A screen that went away (e.g. on sign-out) aborted this read: nobody waits for it.
      if (init.signal?.aborted) throw new DOMException("The request was aborted", "AbortError");
      if (error.status === 401 && token) this.options.onUnauthorized?.(error);
      throw error;
    }
    return (await res.json()) as T;
  }

  get<T>(path: string, query: Query = {}, init?: { signal?: AbortSignal }): Promise<T> {
    return this.call<T>("GET", `${path}${queryString(query)}`, undefined, init);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>("POST", path, body);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>("PATCH", path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.call<T>("DELETE", path);
  }
}

/** `path` with `?owner=` (or `&owner=` after its own query). */
function withOwner(path: string, owner: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}owner=${encodeURIComponent(owner)}`;
}

/** The path of one memory's sub-resource, with its id escaped. */
export const memoryPath = (id: string, rest = "") =>
  `/v1/memories/${encodeURIComponent(id)}${rest}`;
