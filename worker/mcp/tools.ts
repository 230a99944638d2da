/**
 * MCP tools generated from the API contract: one tool per memory operation, named as the
 * public MemoClaw MCP server names it (so agents' prompts carry over). Input schema: the
 * operation's path and query parameters and body properties, in one object; output schema:
 * its success response; description: its summary, price and how it is paid, and for a tool an
 * agent calls again and again (the change feed) how to go on (AGENT_NOTES). Everything else is
 * read from the OpenAPI document the declarations produce (worker/routes); no schema is
 * written twice.
 */
import {
  bodySchema,
  type DocOperation,
  inline,
  type OpenApiDoc,
  type JsonSchema as Schema,
  successSchema,
} from "../lib/openapi";

export type { OpenApiDoc } from "../lib/openapi";

/**
 * operationId → tool name (memoclaw-mcp's names; `memoclaw_job` and `memoclaw_changes` are
 * ours: it has no jobs tool and no change feed).
 */
export const TOOL_NAMES: Record<string, string> = {
  storeMemory: "memoclaw_store",
  storeMemories: "memoclaw_bulk_store",
  importMemories: "memoclaw_import",
  recall: "memoclaw_recall",
  buildContext: "memoclaw_context",
  search: "memoclaw_search",
  listMemories: "memoclaw_list",
  countMemories: "memoclaw_count",
  getMemory: "memoclaw_get",
  updateMemory: "memoclaw_update",
  batchUpdateMemories: "memoclaw_batch_update",
  deleteMemory: "memoclaw_delete",
  bulkDeleteMemories: "memoclaw_bulk_delete",
  pinMemory: "memoclaw_pin",
  unpinMemory: "memoclaw_unpin",
  listCoreMemories: "memoclaw_core_memories",
  createRelation: "memoclaw_create_relation",
  listRelations: "memoclaw_list_relations",
  deleteRelation: "memoclaw_delete_relation",
  memoryGraph: "memoclaw_graph",
  memoryHistory: "memoclaw_history",
  extractMemories: "memoclaw_extract",
  ingest: "memoclaw_ingest",
  consolidateMemories: "memoclaw_consolidate",
  suggested: "memoclaw_suggested",
  exportMemories: "memoclaw_export",
  migrate: "memoclaw_migrate",
  memoryStats: "memoclaw_stats",
  listNamespaces: "memoclaw_namespaces",
  listTags: "memoclaw_tags",
  getJob: "memoclaw_job",
  freeTierStatus: "memoclaw_status",
  listChanges: "memoclaw_changes",
};

/**
 * What an agent needs beyond the operation's own description, by operationId: how to use a
 * tool across calls, which the contract describes per request only.
 */
const AGENT_NOTES: Record<string, string> = {
  listChanges:
    'To follow the feed, keep the answer\'s `next_cursor` and call again with `since` set to it: each call answers the events after the last one seen, none twice. While `has_more` is true, call again at once. To be told of the next change, pass `wait` (seconds, up to 25): the call answers as soon as an event follows the cursor, or with no events once `wait` is over; then call again with the new `next_cursor`. `since: "now"` starts from the current end (only what happens from now on); no `since` starts from the oldest event kept. `kinds` is a comma-separated list of the `kind` values of the output schema (e.g. `memory.stored,memory.updated`). With `owner`, the events of the namespaces that wallet shared with you, whoever wrote them: `created_by` names the owner or the wallet that wrote through a grant.',
};

/** Where each input property goes in the HTTP request the tool call becomes. */
export interface ToolRoute {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

export interface Tool {
  name: string;
  description: string;
  inputSchema: Schema & { type: "object" };
  outputSchema: Schema & { type: "object" };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean };
  route: ToolRoute;
}

/** Top-level properties and required names of an object schema, through allOf. */
function objectParts(schema: Schema): { properties: Record<string, Schema>; required: string[] } {
  const parts = [schema, ...((schema.allOf as Schema[] | undefined) ?? [])];
  return {
    properties: Object.assign({}, ...parts.map((p) => (p.properties as Schema) ?? {})),
    required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []),
  };
}

/**
 * A query parameter as an agent would send it: the query string's whole numbers and booleans
 * as JSON numbers and booleans (the call turns them back into text).
 */
function queryProperty(schema: Schema): Schema {
  if (schema.type === "string" && schema.pattern === "^\\d+$") {
    return {
      type: "integer",
      minimum: 0,
      ...(schema.description ? { description: schema.description } : {}),
    };
  }
  const values = schema.enum as unknown[] | undefined;
  if (values?.includes("true") && values.includes("false")) return { type: "boolean" };
  return schema;
}

function describe(op: DocOperation, method: string, path: string): string {
  const price = op["x-price-usd"];
  const per = op["x-price-per"] ? `per ${op["x-price-per"]}` : "per call";
  const dearer = op["x-price-if"];
  const paid = price
    ? ` Paid: ${price} USDC ${per}${dearer ? ` (${dearer.usd} USDC when ${dearer.when})` : ""} once the wallet's 100 free calls are used (x402: the result asks for payment; retry with _meta["x402/payment"]).`
    : " Free.";
  const note = AGENT_NOTES[op.operationId];
  return `${op.summary ?? op.operationId}.${op.description ? ` ${op.description}` : ""}${note ? ` ${note}` : ""} (${method.toUpperCase()} ${path})${paid}`;
}

/** The tools of a contract document, in TOOL_NAMES order. */
export function toolsOf(doc: OpenApiDoc): Tool[] {
  const components = doc.components?.schemas ?? {};
  const byId = new Map<string, { method: string; path: string; op: DocOperation }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) byId.set(op.operationId, { method, path, op });
  }
  return Object.entries(TOOL_NAMES).flatMap(([operationId, name]) => {
    const found = byId.get(operationId);
    if (!found) return [];
    const { method, path, op } = found;
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    const params = op.parameters ?? [];
    for (const p of params) {
      const schema = inline(p.schema ?? {}, components) as Schema;
      properties[p.name] = p.in === "query" ? queryProperty(schema) : schema;
      if (p.required) required.push(p.name);
    }
    const body = bodySchema(op, doc);
    if (body) {
      const parts = objectParts(body);
      // Tool calls answer with the result itself: no background jobs over MCP.
      delete parts.properties.async;
      Object.assign(properties, parts.properties);
      required.push(...parts.required.filter((r) => r !== "async"));
    }
    const output = successSchema(op, doc);
    return [
      {
        name,
        description: describe(op, method, path),
        inputSchema: {
          type: "object" as const,
          properties,
          ...(required.length ? { required } : {}),
        },
        outputSchema: { ...output, type: "object" as const },
        annotations: {
          title: op.summary ?? name,
          readOnlyHint: method === "get",
          destructiveHint: method === "delete",
        },
        route: {
          method: method.toUpperCase(),
          path,
          pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
          queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
          hasBody: Boolean(body),
        },
      },
    ];
  });
}
