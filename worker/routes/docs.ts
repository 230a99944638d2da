/**
 * The contract, served: GET /openapi.json (OpenAPI 3.1, generated from the operation
 * declarations) and GET /docs (Swagger UI over it). Swagger UI's script and styles are the
 * pinned `swagger-ui-dist` package's, copied into the static assets by console/build.ts and
 * served at /docs/assets/*, so the page works offline; nothing comes from a CDN.
 */
import { z } from "@hono/zod-openapi";
import { cachedPublic } from "./edge-cache";
import { json, type Operation, operation } from "./operation";

/** The page's own script (no inline script, so the CSP can say script-src 'self'). */
export const DOCS_ASSETS = "/docs/assets";

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>memory-service API reference</title>
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS}/docs.js"></script>
</body>
</html>
`;

/** Both documents' operations; `document` builds the OpenAPI object (once, it is static). */
export function contractOperations(document: () => unknown): Operation[] {
  const openapi = operation(
    {
      method: "get",
      path: "/openapi.json",
      operationId: "openapi",
      tags: ["service"],
      summary: "This document: OpenAPI 3.1 of every operation",
      auth: "public",
      responses: { 200: json(z.record(z.string(), z.unknown()), "The OpenAPI document") },
    },
    (c) => cachedPublic(c, () => c.json(document() as Record<string, unknown>, 200)),
  );
  const docs = operation(
    {
      method: "get",
      path: "/docs",
      operationId: "docs",
      tags: ["service"],
      summary: "The API reference page (Swagger UI, served offline)",
      auth: "public",
      responses: {
        200: { description: "HTML", content: { "text/html": { schema: z.string() } } },
      },
    },
    (c) =>
      cachedPublic(c, () =>
        c.html(DOCS_HTML, 200, {
          "Content-Security-Policy":
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        }),
      ),
  );
  return [openapi, docs];
}
