/**
 * npm run dev's DNS-over-HTTPS (local/dns.ts), asked as the Worker asks it: through the
 * webhook target check's own resolver (worker/webhooks/url-safety.ts). A name of this machine
 * resolves, one that exists nowhere is refused as not resolving, and a question the endpoint
 * does not take is not answered with addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalDns } from "../../local/dns";
import type { LoopbackServer } from "../../local/http-json";
import { checkTarget, dohResolver } from "../../worker/webhooks/url-safety";

let dns: LoopbackServer;
beforeAll(async () => {
  dns = await startLocalDns();
});
afterAll(() => dns.close());

interface DohJson {
  Status: number;
  Answer?: Array<{ name: string; type: number; data: string }>;
}
const ask = async (query: string) => (await (await fetch(`${dns.url}?${query}`)).json()) as DohJson;

describe("npm run dev's DNS-over-HTTPS", () => {
  it("answers a name of this machine from its own resolver, A and AAAA apart", async () => {
    const a = await ask("name=localhost&type=A");
    expect(a).toMatchObject({ Status: 0 });
    expect(a.Answer).toContainEqual({ name: "localhost", type: 1, data: "127.0.0.1" });
    const aaaa = await ask("name=localhost&type=AAAA");
    expect(aaaa.Status).toBe(0);
    for (const record of aaaa.Answer ?? []) expect(record.type).toBe(28);
    expect(await dohResolver(dns.url)("localhost")).toContain("127.0.0.1");
  });

  it("says NXDOMAIN for a name that exists nowhere, which the target check refuses", async () => {
    expect(await ask("name=no-such-host.invalid&type=A")).toEqual({ Status: 3 });
    const policy = { allowLocal: true, resolve: dohResolver(dns.url) };
    const verdict = await checkTarget("https://no-such-host.invalid/hook", policy);
    expect(verdict).toEqual({
      ok: false,
      reason: "names a host that does not resolve (no-such-host.invalid)",
    });
  });

  it("answers a malformed question with FORMERR and no address, and only GET /dns-query", async () => {
    expect(await ask("name=localhost&type=MX")).toEqual({ Status: 1 });
    expect(await ask("type=A")).toEqual({ Status: 1 });
    expect((await fetch(`${dns.url.replace("/dns-query", "/other")}`)).status).toBe(404);
    await expect(dohResolver(dns.url)("")).rejects.toThrow("DNS-over-HTTPS failed");
  });
});
