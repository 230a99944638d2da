/**
 * The contract held by every test: each response the suite receives through `request()`
 * (helpers.ts) is checked against the declaration of its operation (worker/routes): its
 * status must be declared, and its body must match that status's schema, with no field the
 * schema does not declare. A response of an unknown route must be the error body. A mismatch
 * throws, failing the test that got it.
 */
import type { z } from "@hono/zod-openapi";
import { operationFor } from "../worker/routes";
import { ErrorBody } from "../worker/routes/schemas/error";

interface Declared {
  content?: Record<string, { schema?: unknown }>;
}

function fail(what: string, detail: string): never {
  throw new Error(`contract: ${what}: ${detail}`);
}

export function checkContract(
  method: string,
  url: URL,
  status: number,
  contentType: string,
  body: unknown,
): void {
  if (method === "HEAD" || method === "OPTIONS") return;
  const what = `${method} ${url.pathname} → ${status}`;
  const op = operationFor(method, url.pathname);
  if (!op) {
    // No such operation: the router's 404 (or the 401 that comes first on /v1), or a static
    // asset of the console, which is not part of the API.
    if (contentType.includes("json")) check(what, ErrorBody, body);
    return;
  }
  const responses = (op.routes[0]?.responses ?? {}) as Record<string, Declared>;
  const declared = responses[String(status)];
  if (!declared) fail(what, `status not declared (declared: ${Object.keys(responses).join(", ")})`);
  const mediaType = contentType.split(";")[0]?.trim() ?? "";
  const content = declared.content ?? {};
  const schema = content[mediaType]?.schema;
  if (!schema) fail(what, `content type ${mediaType || "(none)"} not declared`);
  check(what, schema as z.ZodType, body);
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The fields of a plain object schema (through optional, nullable, pipes, intersections). */
function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = defOf(schema);
  if (def.type === "object") return def.shape ?? {};
  if (def.innerType) return fieldsOf(def.innerType);
  if (def.type === "pipe" && def.in) return fieldsOf(def.in);
  if (def.type === "intersection" && def.left && def.right) {
    const [l, r] = [fieldsOf(def.left), fieldsOf(def.right)];
    return l && r ? { ...l, ...r } : null;
  }
  return null;
}

/**
 * Paths of the fields a value has that its schema does not declare (zod's objects let them
 * through). Records and unknowns declare any key; a union is satisfied by its best option.
 */
function undeclared(schema: z.ZodType, value: unknown, path: string): string[] {
  if (value === null || typeof value !== "object") return [];
  const def = defOf(schema);
  if (def.innerType) return undeclared(def.innerType, value, path);
  if (def.type === "pipe" && def.in) return undeclared(def.in, value, path);
  if (def.type === "array" && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.flatMap((v, i) => undeclared(element, v, `${path}.${i}`));
  }
  if (def.type === "union" && def.options) {
    const fits = def.options.filter((o) => o.safeParse(value).success);
    const found = fits.map((o) => undeclared(o, value, path));
    return found.find((f) => f.length === 0) ?? found[0] ?? [];
  }
  const fields = fieldsOf(schema);
  if (!fields || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const field = fields[key];
    return field ? undeclared(field, v, `${path}.${key}`) : [`${path}.${key}`];
  });
}

function check(what: string, schema: z.ZodType, body: unknown) {
  const result = schema.safeParse(body);
  if (result.success) {
    const extra = undeclared(schema, body, "(body)");
    if (extra.length > 0) fail(what, `fields not declared: ${extra.slice(0, 10).join(", ")}`);
    return;
  }
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
  fail(
    what,
    `body does not match the declared schema: ${issues}; body ${JSON.stringify(body).slice(0, 300)}`,
  );
}
