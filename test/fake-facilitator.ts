/**
 * A remote x402 facilitator that fails, started by the global setup (in Node, outside workerd)
 * so that the payment path's answers to a broken facilitator can be tested. The first path
 * segment is the behaviour, so a Worker picks one by its X402_FACILITATOR_URL:
 *
 *   /down/…          every request answers 503 (the facilitator is unreachable or broken)
 *   /settle-fails/…  GET /supported and POST /verify answer as a working facilitator would
 *                    (the payment is valid); POST /settle answers 500 mid-way, so whether the
 *                    transfer happened is unknown to the service
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type LoopbackServer, listenOnLoopback, readBody, sendJson } from "../local/http-json";

/** Its base URL is without a behaviour, e.g. http://127.0.0.1:PORT. */
export type FakeFacilitator = LoopbackServer;

export async function startFakeFacilitator(): Promise<FakeFacilitator> {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => sendJson(res, 500, { error: String(err) }));
  });
  return listenOnLoopback(server);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const [, mode, route] = new URL(req.url ?? "/", "http://fake").pathname.split("/");
  const body = req.method === "POST" ? JSON.parse((await readBody(req)) || "{}") : {};
  if (mode === "down") return sendJson(res, 503, { error: "facilitator down" });
  if (route === "supported") {
    const kind = (network: string) => ({ x402Version: 2, scheme: "exact", network });
    return sendJson(res, 200, {
      kinds: [kind("eip155:31337"), kind("eip155:8453")],
      extensions: [],
      signers: {},
    });
  }
  const payer = body?.paymentPayload?.payload?.authorization?.from;
  if (route === "verify") return sendJson(res, 200, { isValid: true, payer });
  if (route === "settle") return sendJson(res, 500, { error: "settlement crashed" });
  sendJson(res, 404, { error: `no route ${route}` });
}
