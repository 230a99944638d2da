/**
 * A webhook receiver for the tests, started by the global setup (in Node, outside workerd),
 * that verifies every delivery with the `standardwebhooks` package, as a user's would, and
 * records it. Also a DNS-over-HTTPS stand-in (JSON form) for the Worker's name checks
 * (WEBHOOKS_DNS_URL), so tests can make a name resolve where they need it, offline.
 *
 * POST /__secret {key, secret}  the secret deliveries to /hook/<mode>/<key> are verified with
 * GET  /__deliveries?key=K      every delivery to key K: {verified, error, headers, payload,
 *                               status (what the receiver answered), received_at}
 * POST /hook/<mode>/<key>       a delivery; <mode>:
 *   ok         2xx when it verifies, 401 when not
 *   fail       500 every time
 *   fail-once  500 the first time a webhook-id is seen, then as `ok`
 *   redirect   302 to /hook/ok/<key>-redirected (which must never be reached)
 *   gone       410
 * GET  /dns-query?name=&type=A|AAAA  the names of DNS_NAMES; any other is NXDOMAIN
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Webhook } from "standardwebhooks";
import { type LoopbackServer, listenOnLoopback, readBody, sendJson } from "../local/http-json";

export type WebhookReceiver = LoopbackServer;

/** Names the DNS stand-in answers, with their A and AAAA addresses. */
export const DNS_NAMES: Record<string, { A?: string[]; AAAA?: string[] }> = {
  "example.com": { A: ["93.184.215.14"], AAAA: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"] },
  "public.webhooks.test": { A: ["93.184.215.14"] },
  "private.webhooks.test": { A: ["10.1.2.3"] },
  "loopback.webhooks.test": { A: ["127.0.0.1"] },
  "linklocal.webhooks.test": { A: ["169.254.169.254"] },
  "ula.webhooks.test": { AAAA: ["fd00::1"] },
  "mapped.webhooks.test": { AAAA: ["::ffff:192.168.0.1"] },
  "mixed.webhooks.test": { A: ["93.184.215.14", "192.168.1.1"] },
};

interface Received {
  mode: string;
  verified: boolean;
  error: string | null;
  headers: Record<string, string>;
  payload: unknown;
  status: number;
  received_at: number;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secrets = new Map<string, string>();
  const received = new Map<string, Received[]>();
  const seen = new Set<string>();

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(err) });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://receiver");
    if (req.method === "GET" && url.pathname === "/dns-query") return dns(url, res);
    if (req.method === "GET" && url.pathname === "/__deliveries") {
      return sendJson(res, 200, received.get(url.searchParams.get("key") ?? "") ?? []);
    }
    const body = await readBody(req);
    if (req.method === "POST" && url.pathname === "/__secret") {
      const { key, secret } = JSON.parse(body) as { key: string; secret: string };
      secrets.set(key, secret);
      return sendJson(res, 200, { ok: true });
    }
    const hook = url.pathname.match(/^\/hook\/([a-z-]+)\/([\w-]+)$/);
    if (req.method !== "POST" || !hook) return sendJson(res, 404, { error: "not found" });
    const [, mode = "", key = ""] = hook;
    const headers: Record<string, string> = {};
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    let verified = false;
    let error: string | null = null;
    let payload: unknown = body;
    const secret = secrets.get(key);
    try {
      if (!secret) throw new Error("no secret for this key");
      payload = new Webhook(secret).verify(body, headers);
      verified = true;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const status = answer(mode, key, headers["webhook-id"] ?? "", verified);
    const list = received.get(key) ?? [];
    list.push({ mode, verified, error, headers, payload, status, received_at: Date.now() });
    received.set(key, list);
    if (status === 302) {
      res.writeHead(302, { location: `/hook/ok/${key}-redirected` });
      res.end();
      return;
    }
    sendJson(res, status, { received: verified });
  }

  function answer(mode: string, key: string, id: string, verified: boolean): number {
    if (mode === "fail") return 500;
    if (mode === "gone") return 410;
    if (mode === "redirect") return 302;
    if (mode === "fail-once") {
      const first = !seen.has(`${key}\n${id}`);
      seen.add(`${key}\n${id}`);
      if (first) return 500;
    }
    return verified ? 200 : 401;
  }

  function dns(url: URL, res: ServerResponse): void {
    const name = (url.searchParams.get("name") ?? "").replace(/\.$/, "").toLowerCase();
    const type = url.searchParams.get("type") === "AAAA" ? "AAAA" : "A";
    const entry = DNS_NAMES[name];
    if (!entry) {
      sendJson(res, 200, { Status: 3, Answer: [] });
      return;
    }
    const answers = (entry[type] ?? []).map((data) => ({
      name,
      type: type === "A" ? 1 : 28,
      TTL: 60,
      data,
    }));
    sendJson(res, 200, { Status: 0, Answer: answers });
  }

  return listenOnLoopback(server);
}
