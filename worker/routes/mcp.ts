/**
 * POST /mcp (MCP over Streamable HTTP, worker/mcp) as a declared operation. It is public at
 * the HTTP level: listing tools needs no identity, and each tool call is checked as the HTTP
 * request it becomes. GET and DELETE answer 405 (stateless: no stream, no session).
 */
import { z } from "@hono/zod-openapi";
import { innerEnv, newInnerCalls } from "../lib/inner-call";
import { serveMcp } from "../mcp/server";
import { type OpenApiDoc, type Tool, toolsOf } from "../mcp/tools";
import type { AppContext } from "../middleware/app-env";
import { namedOwner } from "../middleware/owner";
import { OWNER_PARAM } from "../sharing/owner-param";
import { json, type Operation, operation } from "./operation";
import { ERRORS } from "./schemas/error";

/** Sends a request through the Worker's app, as itself (see lib/inner-call.ts). */
type ExecutionCtx = AppContext["executionCtx"];
export type AppFetch = (
  request: Request,
  env: object,
  ctx: ExecutionCtx | undefined,
) => Promise<Response>;

const JsonRpcMessage = z
  .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))])
  .openapi({ description: "A JSON-RPC 2.0 message or batch (MCP)" });
const JsonRpcError = z.object({
  jsonrpc: z.literal("2.0"),
  error: z.object({ code: z.number().int(), message: z.string() }),
  id: z.union([z.string(), z.number(), z.null()]),
});
const transportError = (description: string) => json(JsonRpcError, description);

function executionCtx(c: AppContext): ExecutionCtx | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined; // plain Node: there is no execution context
  }
}

export function mcpOperations(document: () => unknown, appFetch: () => AppFetch): Operation[] {
  let tools: Tool[] | undefined;
  const post = operation(
    {
      method: "post",
      path: "/mcp",
      operationId: "mcp",
      tags: ["mcp"],
      summary: "MCP over Streamable HTTP (stateless): the memory API as tools, paid with x402",
      auth: "public",
      request: { body: { content: { "application/json": { schema: JsonRpcMessage } } } },
      responses: {
        200: json(JsonRpcMessage, "The JSON-RPC response (a tool result, with x402 _meta)"),
        202: { description: "A notification or response was accepted" },
        400: transportError("Not a valid JSON-RPC message"),
        // `owner` naming another wallet: no grant opens /mcp itself.
        403: ERRORS[403],
        406: transportError("The client must accept application/json and text/event-stream"),
        415: transportError("The body must be application/json"),
      },
    },
    async (c) => {
      // `?owner=` of another wallet is a 403 here as on every owner-only operation (an
      // anonymous caller is no wallet's): a grant is used per tool call, through the tools'
      // own `owner` argument, never for the whole batch (docs/sharing.md).
      const identity = c.get("identity");
      namedOwner(
        c,
        identity.status === "wallet" ? identity.wallet : undefined,
        `POST /mcp takes no \`${OWNER_PARAM}\`: pass \`${OWNER_PARAM}\` as an argument of each tool call a grant opens (docs/sharing.md)`,
      );
      tools ??= toolsOf(document() as OpenApiDoc);
      const fetchApp = appFetch();
      const ctx = executionCtx(c);
      // One env for all the tool calls of this request: they share its one count, and its
      // rate-limit headers tell where they left the counts (inner-call.ts, middleware/meter.ts).
      const calls = newInnerCalls();
      c.set("innerCalls", calls);
      const env = innerEnv(c.env, calls);
      return serveMcp(c.req.raw, c.req.valid("json"), tools, (request) =>
        fetchApp(request, env, ctx),
      );
    },
  );
  const refuse = (method: "get" | "delete") =>
    operation(
      {
        method,
        path: "/mcp",
        operationId: `mcp_${method}`,
        tags: ["mcp"],
        summary: "Not offered: the endpoint is stateless (no event stream, no session)",
        auth: "public",
        responses: { 405: transportError("Method not allowed") },
      },
      (c) =>
        c.json(
          {
            jsonrpc: "2.0" as const,
            error: { code: -32000, message: "Method not allowed." },
            id: null,
          },
          405,
          { Allow: "POST" },
        ),
    );
  return [post, refuse("get"), refuse("delete")];
}
