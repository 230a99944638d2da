import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";

/** Largest accepted body: 100 extract messages of 32,768 characters, with room for JSON. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Reads request bodies once, before any route: malformed JSON is a 422 (not Hono's 400),
 * a JSON body sent without a JSON Content-Type is still read as JSON (curl's default is
 * form-encoded), and NUL characters are refused here because Postgres text and jsonb cannot
 * hold them (they would otherwise surface as a 500 from the database).
 */
export const bodyGuard = createMiddleware<AppEnv>(async (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  const length = Number(c.req.header("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) {
    throw new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  const text = await c.req.text();
  if (text.length > MAX_BODY_BYTES) {
    throw new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  if (text.trim() === "") return next();
  if (text.includes("\u0000") || /(^|[^\\])(\\\\)*\\u0000/.test(text)) {
    throw new ApiError("VALIDATION_ERROR", "Request body must not contain NUL characters");
  }
  try {
    JSON.parse(text);
  } catch {
    throw new ApiError("VALIDATION_ERROR", "Malformed JSON in request body");
  }
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (!JSON_TYPE.test(mediaType)) {
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-type", "application/json");
    c.req.raw = new Request(c.req.raw.url, { method, headers, body: text });
  }
  await next();
});
