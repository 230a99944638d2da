/**
 * The operations a grant opens (docs/sharing.md): a grantee calls them with `?owner=` to work
 * in a namespace another wallet shared, and each needs `read` or `write` of the grant. Api.call
 * adds the owner to these calls and to no other, so no screen has to. A module of its own, with
 * no imports, so that the browser test holds this very list to /openapi.json's `x-shared`.
 */
export type Need = "read" | "write";

export const SHARED_OPERATIONS: ReadonlyArray<readonly [method: string, path: string, need: Need]> =
  [
    ["POST", "/v1/recall", "read"],
    ["POST", "/v1/search", "read"],
    ["GET", "/v1/memories/search", "read"],
    ["GET", "/v1/memories", "read"],
    ["GET", "/v1/memories/count", "read"],
    ["GET", "/v1/memories/{id}", "read"],
    ["GET", "/v1/memories/{id}/history", "read"],
    ["POST", "/v1/context", "read"],
    ["GET", "/v1/memories/{id}/graph", "read"],
    ["GET", "/v1/export", "read"],
    ["GET", "/v1/suggested", "read"],
    ["GET", "/v1/changes", "read"],
    ["POST", "/v1/store", "write"],
    ["POST", "/v1/store/batch", "write"],
    ["PATCH", "/v1/memories/{id}", "write"],
    ["PATCH", "/v1/memories/batch", "write"],
    ["DELETE", "/v1/memories/{id}", "write"],
  ];

// Memory ids are UUIDs, so `{id}` never matches a literal segment of an operation no grant
// opens, such as GET /v1/memories/core.
const ID = "[0-9a-fA-F-]{36}";

const MATCHERS = SHARED_OPERATIONS.map(([method, path]) => ({
  method,
  pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, ID)}$`),
}));

/** True when a grant opens `method path` (a path with or without its query string). */
export function isShareable(method: string, path: string): boolean {
  const pathname = path.split("?", 1)[0] ?? "";
  const upper = method.toUpperCase();
  return MATCHERS.some((m) => m.method === upper && m.pattern.test(pathname));
}
