/**
 * A tool call is its operation's HTTP request, sent through the Worker's own app: the same
 * identity, free allowance, x402 payment, validation, handler, domain function and errors as
 * the route, with nothing copied. Only the framing differs (x402 MCP transport, v2):
 *   - the payment arrives as `params._meta["x402/payment"]` (a PaymentPayload) and is sent
 *     as the request's PAYMENT-SIGNATURE header;
 *   - a 402 becomes a tool result with `isError: true`, the PaymentRequired object as
 *     `structuredContent`, and `{"x402/error": {code: 402, message, data}}` as its text;
 *   - a settlement (PAYMENT-RESPONSE) comes back as `result._meta["x402/payment-response"]`.
 * A 401 is an MCP error carrying its reason; any other failure is a tool error with the
 * API's code and message.
 */
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import {
  PAYMENT_REQUIRED_HEADER,
  PAYMENT_RESPONSE_HEADER,
  PAYMENT_SIGNATURE_HEADER,
} from "../payment/required";
import type { ToolRoute } from "./tools";

/** Sends a request through the Worker's app (its fetch, with the /mcp request's env). */
export type Dispatch = (request: Request) => Promise<Response>;

/** JSON-RPC error code of a call without a valid wallet identity (MCP's server-error range). */
export const UNAUTHORIZED_CODE = -32001;

/** Headers of the /mcp request that the operation's request carries on: who is calling. */
const FORWARDED = ["x-wallet-auth", "authorization", "cf-connecting-ip"];

export function toolRequest(
  outer: Request,
  route: ToolRoute,
  args: Record<string, unknown>,
  payment: unknown,
): Request {
  const rest = { ...args };
  let path = route.path;
  for (const name of route.pathParams) {
    const value = rest[name];
    delete rest[name];
    path = path.replace(`{${name}}`, encodeURIComponent(value === undefined ? "" : String(value)));
  }
  const url = new URL(path, outer.url);
  for (const name of route.queryParams) {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null) continue;
    url.searchParams.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const headers = new Headers({ "content-type": "application/json" });
  for (const name of FORWARDED) {
    const value = outer.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (payment !== undefined) {
    headers.set(PAYMENT_SIGNATURE_HEADER, encodePaymentSignatureHeader(payment as PaymentPayload));
  }
  return new Request(url, {
    method: route.method,
    headers,
    body: route.hasBody ? JSON.stringify(rest) : undefined,
  });
}

interface ApiErrorBody {
  error?: { code?: string; message?: string; details?: unknown };
}

export async function toolResult(response: Response): Promise<CallToolResult> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a non-JSON answer is passed on as text
  }
  if (response.ok) {
    const settled = response.headers.get(PAYMENT_RESPONSE_HEADER);
    return {
      content: [{ type: "text", text }],
      ...(body && typeof body === "object"
        ? { structuredContent: body as Record<string, unknown> }
        : {}),
      ...(settled
        ? { _meta: { "x402/payment-response": decodePaymentResponseHeader(settled) } }
        : {}),
    };
  }
  const error = (body as ApiErrorBody)?.error;
  const message = error?.message ?? `HTTP ${response.status}`;
  if (response.status === 401) {
    throw new McpError(UNAUTHORIZED_CODE, `Unauthorized: ${message}`, { status: 401 });
  }
  const required = response.headers.get(PAYMENT_REQUIRED_HEADER);
  if (response.status === 402 && required) {
    const paymentRequired = decodePaymentRequiredHeader(required);
    return {
      isError: true,
      structuredContent: paymentRequired as unknown as Record<string, unknown>,
      content: [
        {
          type: "text",
          text: JSON.stringify({ "x402/error": { code: 402, message, data: paymentRequired } }),
        },
      ],
    };
  }
  return {
    isError: true,
    content: [
      {
        type: "text",
        text: JSON.stringify({ status: response.status, error: error ?? { message: text } }),
      },
    ],
  };
}

export function unknownTool(name: string): never {
  throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
}
