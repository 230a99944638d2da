/**
 * Where a webhook may not go. Through the API in production mode (no WEBHOOKS_ALLOW_LOCAL):
 * every refused target is a 422 on `url` and nothing is registered; host names resolve through
 * the receiver's DNS stand-in. The checks' functions directly: every range, every IPv6 form.
 */
import { describe, expect, it } from "vitest";
import {
  addressRefusal,
  checkTarget,
  checkUrl,
  HostNotFound,
  ipLiteral,
  type Resolver,
} from "../../../worker/webhooks/url-safety";
import {
  expectError,
  expectStatus,
  type Json,
  newWallet,
  signAuth,
  type Wallet,
} from "../../helpers";
import { hook, production, received, register } from "./fixtures";

const REFUSED_LITERALS = [
  "https://10.0.0.1/hook",
  "https://10.255.255.255/hook",
  "https://172.16.0.1/hook",
  "https://172.31.255.254/hook",
  "https://192.168.1.1/hook",
  "https://169.254.169.254/latest/meta-data",
  "https://127.0.0.1/hook",
  "https://127.1/hook",
  "https://2130706433/hook",
  "https://0x7f000001/hook",
  "https://0.0.0.0/hook",
  "https://100.64.0.1/hook",
  "https://224.0.0.1/hook",
  "https://[::1]/hook",
  "https://[::]/hook",
  "https://[fc00::1]/hook",
  "https://[fd12:3456::1]/hook",
  "https://[fe80::1]/hook",
  "https://[ff02::1]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://[::ffff:10.0.0.1]/hook",
  "https://[64:ff9b::a9fe:a9fe]/hook",
  "https://[2002:c0a8:0101::1]/hook",
  "https://[2001:db8::1]/hook",
];

const REFUSED_NAMES = [
  "https://localhost/hook",
  "https://api.localhost/hook",
  "https://printer.local/hook",
  "https://metadata.google.internal/hook",
  "https://intranet/hook",
  // Names that resolve to a refused address (the DNS stand-in of test/webhook-receiver.ts).
  "https://private.webhooks.test/hook",
  "https://loopback.webhooks.test/hook",
  "https://linklocal.webhooks.test/hook",
  "https://ula.webhooks.test/hook",
  "https://mapped.webhooks.test/hook",
  "https://mixed.webhooks.test/hook",
  "https://nowhere.webhooks.test/hook",
];

describe("webhook targets refused in production", () => {
  const w = newWallet(production);

  it("refuses every private, loopback, link-local, unique-local and special address", async () => {
    for (const url of [...REFUSED_LITERALS, ...REFUSED_NAMES]) {
      const res = await w.post("/v1/webhooks", { url });
      expectError(res, 422, "VALIDATION_ERROR");
      expect(
        res.body.error.details.issues.map((i: Json) => i.path),
        url,
      ).toEqual(["url"]);
    }
    expect(expectStatus(await w.get("/v1/webhooks"), 200).webhooks).toEqual([]);
  });

  it("refuses http, and the suite's own local receiver (loopback)", async () => {
    for (const url of ["http://example.com/hook", hook().url]) {
      const res = await w.post("/v1/webhooks", { url });
      expectError(res, 422, "VALIDATION_ERROR");
    }
  });

  it("says why", async () => {
    const cases: Array<[string, string]> = [
      ["http://example.com/hook", "must be an https URL"],
      ["https://10.0.0.1/hook", "a private address"],
      ["https://[::1]/hook", "a loopback address"],
      ["https://[fe80::1]/hook", "a link-local address"],
      ["https://private.webhooks.test/hook", "resolves to 10.1.2.3, a private address"],
      ["https://nowhere.webhooks.test/hook", "does not resolve"],
      ["https://user:pw@example.com/hook", "user name or password"],
    ];
    for (const [url, why] of cases) {
      const res = await w.post("/v1/webhooks", { url });
      expect(res.body.error.message, url).toContain(why);
    }
  });

  it("accepts an https URL whose name resolves only to public addresses", async () => {
    const res = await w.post("/v1/webhooks", { url: "https://example.com/hooks/memory" });
    expect(expectStatus(res, 201).url).toBe("https://example.com/hooks/memory");
  });
});

describe("webhook targets in local mode (npm run dev, the suite)", () => {
  it("allows http and loopback, and still refuses other private addresses", async () => {
    const w = newWallet();
    for (const url of [
      "http://127.0.0.1:9/hook",
      "http://localhost:9/hook",
      "http://[::1]:9/hook",
    ]) {
      expectStatus(await w.post("/v1/webhooks", { url }), 201);
    }
    for (const url of [
      "http://10.0.0.1/hook",
      "http://192.168.0.10/hook",
      "http://[fe80::1]/hook",
    ]) {
      expectError(await w.post("/v1/webhooks", { url }), 422, "VALIDATION_ERROR");
    }
  });

  it("checks again at delivery: a target refused now is a failed attempt, not a request", async () => {
    // Registered in local mode; a production-mode Worker then refuses it at delivery.
    const w = newWallet();
    const { key, url } = hook();
    const created = await register(w, key, { url });
    const local = expectStatus(await w.post(`/v1/webhooks/${created.id}/test`), 200);
    expect(local.delivery.ok).toBe(true);
    const refused = await postAs(w, production, `/v1/webhooks/${created.id}/test`);
    expect(refused.delivery).toMatchObject({ ok: false, status: null, latency_ms: 0 });
    expect(refused.delivery.error).toContain("target refused");
    expect(await received(key)).toHaveLength(1);
  });
});

/** POST `path` as wallet `w`, but through `worker`. */
async function postAs(w: Wallet, worker: typeof production, path: string): Promise<Json> {
  const res = await worker(`http://memory.test${path}`, {
    method: "POST",
    headers: { "x-wallet-auth": await signAuth(w.account) },
  });
  return res.json();
}

describe("url-safety, directly", () => {
  const resolver =
    (answers: Record<string, string[]>): Resolver =>
    async (host) => {
      const found = answers[host];
      if (!found) throw new HostNotFound(host);
      return found;
    };

  it("parses every IPv6 form to its groups", () => {
    expect(ipLiteral("::1")).toEqual({ v: 6, groups: [0, 0, 0, 0, 0, 0, 0, 1] });
    expect(ipLiteral("::ffff:127.0.0.1")).toEqual({
      v: 6,
      groups: [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1],
    });
    expect(ipLiteral("fe80::1:2")).toEqual({ v: 6, groups: [0xfe80, 0, 0, 0, 0, 0, 1, 2] });
    expect(ipLiteral("1:2:3:4:5:6:7:8")).toEqual({ v: 6, groups: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect(ipLiteral("1::2::3")).toBeUndefined();
    expect(ipLiteral("1:2:3:4:5:6:7:8:9")).toBeUndefined();
    expect(ipLiteral("example.com")).toBeUndefined();
    expect(ipLiteral("256.1.1.1")).toBeUndefined();
  });

  it("refuses each range and allows public addresses", () => {
    const refused = [
      "10.1.1.1",
      "172.16.5.4",
      "172.31.0.1",
      "192.168.0.1",
      "169.254.1.1",
      "127.0.0.1",
      "127.255.0.9",
      "100.64.1.1",
      "0.1.2.3",
      "224.1.1.1",
      "255.255.255.255",
      "::1",
      "::",
      "fc00::1",
      "fdff::1",
      "fe80::abcd",
      "febf::1",
      "ff05::2",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:192.168.1.1",
      "::10.0.0.1",
      "64:ff9b::10.0.0.1",
      "2002:0a00:0001::1",
      "2001:db8::5",
      "2001:0::1",
    ];
    for (const ip of refused) {
      const parsed = ipLiteral(ip);
      expect(parsed, ip).toBeDefined();
      expect(addressRefusal(parsed as NonNullable<typeof parsed>), ip).toBeTypeOf("string");
    }
    for (const ip of [
      "93.184.215.14",
      "172.32.0.1",
      "8.8.8.8",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ]) {
      const parsed = ipLiteral(ip);
      expect(addressRefusal(parsed as NonNullable<typeof parsed>), ip).toBeUndefined();
    }
  });

  it("normalises what the URL parser normalises (decimal, hex, short IPv4; bracketed IPv6)", () => {
    for (const url of [
      "https://2130706433/",
      "https://0x7f.1/",
      "https://017700000001/",
      "https://[0:0:0:0:0:0:0:1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://LOCALHOST./",
    ]) {
      const verdict = checkUrl(url, false);
      expect(verdict.ok, url).toBe(false);
    }
  });

  it("resolves names, refusing one with any refused address; a DNS failure is transient", async () => {
    const policy = {
      allowLocal: false,
      resolve: resolver({
        "good.example": ["93.184.215.14", "2606:4700::1"],
        "bad.example": ["93.184.215.14", "10.0.0.8"],
        "empty.example": [],
      }),
    };
    expect((await checkTarget("https://good.example/x", policy)).ok).toBe(true);
    expect(await checkTarget("https://bad.example/x", policy)).toMatchObject({ ok: false });
    expect(await checkTarget("https://empty.example/x", policy)).toMatchObject({ ok: false });
    expect(await checkTarget("https://missing.example/x", policy)).toMatchObject({ ok: false });
    const down = {
      allowLocal: false,
      resolve: async () => {
        throw new Error("network");
      },
    };
    expect(await checkTarget("https://good.example/x", down)).toMatchObject({
      ok: false,
      transient: true,
    });
    // An IP literal needs no resolver.
    expect((await checkTarget("https://93.184.215.14/x", down)).ok).toBe(true);
  });
});
