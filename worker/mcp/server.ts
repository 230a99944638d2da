/**
 * POST /mcp: MCP over Streamable HTTP, stateless (a server and a transport per request, JSON
 * answers, no session), served by the Worker itself. Listing tools needs no identity; each
 * tool call is dispatched as its operation's HTTP request (call.ts) with the caller's
 * x-wallet-auth or bearer token.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { type Dispatch, toolRequest, toolResult, unknownTool } from "./call";
import type { Tool } from "./tools";

const INSTRUCTIONS =
  'Long-term memory for this wallet: store what you learn (memoclaw_store), recall it by meaning (memoclaw_recall), get a ready context block (memoclaw_context), and follow what changed (memoclaw_changes: call again with its next_cursor, and with wait to be told of the next change). Send x-wallet-auth or a bearer token with every request. Paid tools are free for the wallet\'s first 100 calls, then answer with x402 payment requirements: pay with _meta["x402/payment"].';

export async function serveMcp(
  request: Request,
  body: unknown,
  tools: Tool[],
  dispatch: Dispatch,
): Promise<Response> {
  const server = new Server(
    { name: "memory-service", version: "1.0.0" },
    {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      // Ajv compiles validators with new Function, which Workers forbid.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ route: _route, ...tool }) => tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    const tool = tools.find((t) => t.name === call.params.name) ?? unknownTool(call.params.name);
    const payment = call.params._meta?.["x402/payment"];
    const args = (call.params.arguments ?? {}) as Record<string, unknown>;
    return toolResult(await dispatch(toolRequest(request, tool.route, args, payment)));
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
  } finally {
    await server.close();
  }
}
