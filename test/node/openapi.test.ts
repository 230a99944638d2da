/**
 * The contract: the document /openapi.json serves is a valid OpenAPI 3.1 document (checked against the
 * official schema), and it covers exactly the routes the Worker's router answers.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";
import { OPERATIONS, openApiDocument } from "../../worker/routes";

const app = createApp();
// What GET /openapi.json serves (test/v1/security.test.ts reads it from the Worker).
const fetchDoc = async () => {
  return JSON.parse(JSON.stringify(openApiDocument(app))) as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string }>>;
    components: { securitySchemes: Record<string, unknown> };
  };
};

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      "bearerAuth",
      "signInWithX",
      "walletAuth",
      "x402Payment",
    ]);
  });

  it("covers every route the router answers, and nothing else", async () => {
    const doc = await fetchDoc();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        Object.keys(item).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
      )
      .sort();
    const routed = [
      ...new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`)),
    ].sort();
    expect(routed).toEqual(documented);
    // Each operation id once; aliases point at their operation.
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(OPERATIONS.length).toBeGreaterThan(35);
  });

  it("declares the error body for every error status, and the 402 of every paid operation", async () => {
    const doc = (await fetchDoc()) as unknown as {
      paths: Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const responses = op.responses as Record<string, { content?: Record<string, unknown> }>;
        for (const [status, response] of Object.entries(responses)) {
          // The MCP transport's own refusals (400, 405, 406, 415) are JSON-RPC errors.
          const transport = path === "/mcp" && ["400", "405", "406", "415"].includes(status);
          if (Number(status) < 400 || transport) continue;
          expect(response.content?.["application/json"], `${method} ${path} ${status}`).toEqual({
            schema: { $ref: "#/components/schemas/Error" },
          });
        }
        if (op["x-price-usd"]) expect(Object.keys(responses)).toContain("402");
      }
    }
  });
});
