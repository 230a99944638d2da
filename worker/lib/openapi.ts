/**
 * Reading the served OpenAPI document (worker/routes builds it from the operation
 * declarations): its shape as far as the MCP tools and the x402 discovery listing read it,
 * and schemas made whole. Both derive what they publish from this one document, so no schema
 * is written twice.
 */

export type JsonSchema = Record<string, unknown>;

export interface DocParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface DocOperation {
  operationId: string;
  summary?: string;
  description?: string;
  "x-price-usd"?: string;
  /** What the price is per, when a call counts several (import: "100 memories"). */
  "x-price-per"?: string;
  "x-price-if"?: { usd: string; when: string };
  parameters?: DocParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** The schema with every `$ref` replaced by the component it names (self-contained). */
export function inline(schema: unknown, components: Record<string, JsonSchema>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components));
  if (!schema || typeof schema !== "object") return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (typeof ref === "string") {
    return inline(components[ref.replace("#/components/schemas/", "")] ?? {}, components);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, components)]));
}

/** The JSON schema of an operation's request body, inlined; undefined when it takes none. */
export function bodySchema(op: DocOperation, doc: OpenApiDoc): JsonSchema | undefined {
  const body = op.requestBody?.content?.["application/json"]?.schema;
  return body ? (inline(body, doc.components?.schemas ?? {}) as JsonSchema) : undefined;
}

/** The JSON schema of an operation's first 2xx response, inlined ({} when it declares none). */
export function successSchema(op: DocOperation, doc: OpenApiDoc): JsonSchema {
  const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith("2"));
  const schema = success?.[1].content?.["application/json"]?.schema ?? {};
  return inline(schema, doc.components?.schemas ?? {}) as JsonSchema;
}
