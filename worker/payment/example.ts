/**
 * An example value for a JSON schema of the contract: the bazaar extension (x402) carries an
 * example request and response beside their schemas, and facilitators validate the examples
 * against the schemas before they list a resource, so the examples are made from the schemas
 * themselves, never written by hand. Only what a valid value needs is filled in: required
 * properties, the smallest allowed array (at least one item, to show its shape), and a value
 * within each bound. The contract's schemas use the subset handled here; `pattern` is not
 * generated from (no required field of a paid operation has one).
 */
import type { JsonSchema } from "../lib/openapi";

const DEPTH_LIMIT = 12;

const FORMATS: Record<string, string> = {
  uuid: "00000000-0000-4000-8000-000000000000",
  "date-time": "2026-01-01T00:00:00.000Z",
  date: "2026-01-01",
  uri: "https://example.com",
  url: "https://example.com",
  email: "user@example.com",
};

const asSchema = (value: unknown): JsonSchema =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchema) : {};

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

function stringExample(schema: JsonSchema): string {
  const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  let text = format ?? "example";
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength);
  if (text.length < min) text = text.padEnd(min, "x");
  if (max !== undefined && text.length > max) text = text.slice(0, max);
  return text;
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const exclusiveMin = num(schema.exclusiveMinimum);
  let value = num(schema.minimum) ?? (exclusiveMin === undefined ? 0 : exclusiveMin + 1);
  const max = num(schema.maximum);
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

function objectExample(schema: JsonSchema, depth: number): Record<string, unknown> {
  const properties = asSchema(schema.properties);
  const required = Array.isArray(schema.required) ? schema.required : [];
  const value: Record<string, unknown> = {};
  for (const name of required) {
    if (typeof name === "string") value[name] = exampleAt(asSchema(properties[name]), depth + 1);
  }
  return value;
}

function arrayExample(schema: JsonSchema, depth: number): unknown[] {
  const max = num(schema.maxItems);
  const count = Math.min(Math.max(num(schema.minItems) ?? 0, 1), max ?? 1);
  return Array.from({ length: count }, () => exampleAt(asSchema(schema.items), depth + 1));
}

/** The first type a schema allows other than null (null only when it allows nothing else). */
function typeOf(schema: JsonSchema): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const named = types.filter((t): t is string => typeof t === "string");
  return named.find((t) => t !== "null") ?? named[0];
}

function exampleAt(schema: JsonSchema, depth: number): unknown {
  if (depth > DEPTH_LIMIT) return null;
  if ("example" in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  const options = [schema.anyOf, schema.oneOf].find(Array.isArray);
  if (options) {
    const option = options.map(asSchema).find((o) => typeOf(o) !== "null") ?? asSchema(options[0]);
    return exampleAt(option, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => exampleAt(asSchema(part), depth + 1));
    return Object.assign({}, objectExample(schema, depth), ...parts);
  }
  switch (typeOf(schema)) {
    case "string":
      return stringExample(schema);
    case "integer":
      return numberExample(schema, true);
    case "number":
      return numberExample(schema, false);
    case "boolean":
      return false;
    case "array":
      return arrayExample(schema, depth);
    case "object":
      return objectExample(schema, depth);
    default:
      // No type (any value) or only null: null is valid for both.
      return schema.properties ? objectExample(schema, depth) : null;
  }
}

/** A value valid against `schema` (see the module comment for what is supported). */
export function exampleOf(schema: JsonSchema): unknown {
  return exampleAt(schema, 0);
}
