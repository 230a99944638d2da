import { createMiddleware } from "hono/factory";
import { ApiError } from "../errors";
import {
  inputIssues,
  issuesError,
  type PathIssue,
  storable,
  UNSTORABLE_TEXT,
} from "../lib/validate";
import type { AppEnv } from "./app-env";

/** Largest accepted body: 100 extract messages of 32,768 characters, with room for JSON. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Deepest accepted body. The deepest valid one (import: body, memories, item, metadata at its
 * 3 levels, a value's array) is 7; the cap keeps every recursive walk that follows shallow.
 */
export const MAX_BODY_DEPTH = 32;

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** Fatal: a body that is not UTF-8 is refused, not silently stored with U+FFFD in its place. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Checks what every route reads, once, before any route: query parameters and the body must
 * hold only text Postgres can store (lib/validate.ts storable), a body must be UTF-8 and JSON
 * nested at most MAX_BODY_DEPTH deep. Each failure is a 422 naming its fields, where it would
 * otherwise be a 500 from the database or a stack overflow. Malformed JSON is a 422 too (not
 * Hono's 400), and a JSON body sent without a JSON Content-Type is still read as JSON (curl's
 * default is form-encoded).
 */
export const inputGuard = createMiddleware<AppEnv>(async (c, next) => {
  const queryIssues: PathIssue[] = Object.entries(c.req.queries())
    .filter(([name, values]) => !storable(name) || !values.every(storable))
    .map(([name]) => ({ path: [storable(name) ? name : "(query)"], message: UNSTORABLE_TEXT }));
  if (queryIssues.length > 0) throw issuesError(queryIssues);

  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  const length = Number(c.req.header("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError("VALIDATION_ERROR", "Request body is not valid UTF-8");
  }
  if (text.trim() === "") return next();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // RangeError included: a parser may give up on extreme nesting.
    throw new ApiError("VALIDATION_ERROR", "Malformed JSON in request body");
  }
  const issues = inputIssues(body, MAX_BODY_DEPTH);
  if (issues.length > 0) throw issuesError(issues);
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (!JSON_TYPE.test(mediaType)) {
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-type", "application/json");
    c.req.raw = new Request(c.req.raw.url, { method, headers, body: text });
  }
  await next();
});

const tooLarge = () =>
  new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds ${MAX_BODY_BYTES} bytes`);
