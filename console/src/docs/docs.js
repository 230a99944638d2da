// The API reference page (GET /docs, served by the Worker): Swagger UI over /openapi.json.
// A file of its own, not an inline script, so the page's CSP can allow scripts from 'self' only.
window.ui = window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  // The wallet header and token are sent by "Try it out" once authorized.
  persistAuthorization: false,
});
