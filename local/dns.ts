/**
 * DNS-over-HTTPS for `npm run dev`, answered by this machine's own resolver (getaddrinfo:
 * /etc/hosts, the system's DNS servers), in the JSON form the Worker's webhook target check
 * asks for (worker/webhooks/url-safety.ts, dohResolver):
 *
 *   GET /dns-query?name=<host>&type=A|AAAA  →  {Status, Answer: [{type: 1|28, data}]}
 *
 * Why not Cloudflare's DoH, production's default: offline, workerd's own lookup of
 * cloudflare-dns.com fails inside the runtime, once per webhook delivery, as an "internal
 * error" with a native stack in the log, and under that load the local runtime dropped
 * requests in flight (wrangler's 503 "Your worker restarted mid-request", a few per
 * schemathesis run). Here an unknown name is a plain NXDOMAIN (Status 3: the delivery is
 * refused with "does not resolve"), a resolver that cannot answer is SERVFAIL (Status 2: the
 * delivery is tried again later), and a name in /etc/hosts resolves as it does for the
 * rest of the machine.
 */
import { lookup } from "node:dns/promises";
import { createServer } from "node:http";
import { type LoopbackServer, listenOnLoopback, sendJson } from "./http-json";

const TYPES = { A: { code: 1, family: 4 }, AAAA: { code: 28, family: 6 } } as const;
/** getaddrinfo's answers for a name that does not exist (or has no address at all). */
const NOT_FOUND = new Set(["ENOTFOUND", "ENODATA", "EAI_NONAME", "EAI_NODATA"]);
const NXDOMAIN = 3;
const SERVFAIL = 2;

/** The answer to one question, in DNS-over-HTTPS JSON. */
export async function answer(name: string, type: string): Promise<object> {
  const asked = TYPES[type as keyof typeof TYPES];
  if (!name || !asked) return { Status: 1 }; // FORMERR: not a question this endpoint takes
  try {
    const addresses = await lookup(name, { all: true, verbatim: true });
    return {
      Status: 0,
      Answer: addresses
        .filter((a) => a.family === asked.family)
        .map((a) => ({ name, type: asked.code, data: a.address })),
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    return { Status: NOT_FOUND.has(code) ? NXDOMAIN : SERVFAIL };
  }
}

/** The endpoint on a free loopback port; its URL is the Worker's WEBHOOKS_DNS_URL. */
export async function startLocalDns(): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "GET" || url.pathname !== "/dns-query") {
      sendJson(res, 404, { error: "GET /dns-query?name=&type=A|AAAA" });
      return;
    }
    answer(url.searchParams.get("name") ?? "", url.searchParams.get("type") ?? "").then(
      (body) => sendJson(res, 200, body),
      () => sendJson(res, 200, { Status: SERVFAIL }),
    );
  });
  const listening = await listenOnLoopback(server);
  return { url: `${listening.url}/dns-query`, close: listening.close };
}
