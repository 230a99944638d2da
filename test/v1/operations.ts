/**
 * The operations of the served /openapi.json as the loops over every operation read them
 * (security.test.ts, paid-work.test.ts), and a valid example body for each that takes one.
 */
import { env } from "cloudflare:workers";
import { type Json, MISSING_ID } from "../helpers";

export interface DocOperation {
  method: string;
  path: string;
  operationId: string;
  auth: string;
  /** x-price-usd: the operation is paid. */
  price?: string;
  /** x-shared: what a grantee needs to call it with `?owner=` (docs/sharing.md). */
  shared?: "read" | "write";
  params: string[];
  /** Names of the query parameters it requires. */
  requiredQuery: string[];
  body?: JsonSchema;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  allOf?: JsonSchema[];
  $ref?: string;
}

/** A valid body of each operation that takes one (owner ids filled in by `ids`). */
export const EXAMPLE_BODIES: Record<string, (ids: Ids) => Json> = {
  createSession: () => ({ address: "0x0", timestamp: 0, signature: "0x0" }),
  storeMemory: () => ({ content: "a fact" }),
  storeMemories: () => ({ memories: [{ content: "a fact" }] }),
  importMemories: () => ({ memories: [{ content: "a fact" }] }),
  recall: () => ({ query: "fact" }),
  buildContext: () => ({ query: "fact" }),
  search: () => ({ query: "fact" }),
  ingest: () => ({ text: "I live in Lisbon." }),
  migrate: () => ({ files: [{ filename: "notes.md", content: "## Note\nhello world" }] }),
  batchUpdateMemories: (ids) => ({ updates: [{ id: ids.memory, content: "changed" }] }),
  bulkDeleteMemories: (ids) => ({ ids: [ids.memory] }),
  batchDeleteMemories: (ids) => ({ ids: [ids.memory] }),
  pinMemory: (ids) => ({ memory_id: ids.memory }),
  extractMemories: () => ({ messages: [{ role: "user", content: "I live in Lisbon." }] }),
  consolidateMemories: () => ({ dry_run: true }),
  updateMemory: () => ({ content: "changed" }),
  createRelation: (ids) => ({ target_id: ids.other, relation_type: "related_to" }),
  mcp: () => ({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  // The suite's receiver (test/webhook-receiver.ts), which verifies and accepts everything.
  createWebhook: () => ({ url: `${env.WEBHOOK_RECEIVER_URL}/hook/ok/example` }),
  grantNamespace: () => ({
    grantee: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    namespace: "team",
    permission: "read",
  }),
};

export interface Ids {
  memory: string;
  other: string;
  relation: string;
  job: string;
}

/** Every operation of the document, aliases included. */
export function operationsOf(doc: Json): DocOperation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Json>).map(([method, o]) => ({
      method: method.toUpperCase(),
      path,
      operationId: o.operationId,
      auth: o["x-auth"],
      price: o["x-price-usd"],
      shared: o["x-shared"],
      params: (o.parameters ?? []).filter((p: Json) => p.in === "path").map((p: Json) => p.name),
      requiredQuery: (o.parameters ?? [])
        .filter((p: Json) => p.in === "query" && p.required)
        .map((p: Json) => p.name),
      body: o.requestBody?.content?.["application/json"]?.schema,
    })),
  );
}

export function concrete(op: DocOperation, values: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? MISSING_ID);
}

export const baseName = (op: DocOperation) => op.operationId.split("__")[0] ?? op.operationId;
