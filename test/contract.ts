/**
 * The contract held by every test: each response the suite receives through `request()`
 * (helpers.ts) is checked against the declaration of its operation (worker/routes): its
 * status must be declared, and its body must match that status's schema. A response of an
 * unknown route must be the error body. A mismatch throws, failing the test that got it.
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

function check(what: string, schema: z.ZodType, body: unknown) {
  const result = schema.safeParse(body);
  if (result.success) return;
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
  fail(
    what,
    `body does not match the declared schema: ${issues}; body ${JSON.stringify(body).slice(0, 300)}`,
  );
}
