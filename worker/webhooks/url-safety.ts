/**
 * Where a webhook may be sent (docs/webhooks.md, "Safety"): https only, and never to an address
 * of a private network, this host, a link or a multicast group, whether the URL names it, a
 * DNS name resolves to it, or (redirects are never followed, deliver.ts) a 3xx points to it.
 * Checked when a webhook is registered and again before every delivery, since DNS answers
 * change. Local mode (WEBHOOKS_ALLOW_LOCAL=on: npm run dev, the tests) also allows http and
 * loopback targets, and nothing else more.
 */
import type { Config } from "../env";

/** Host names as DNS-over-HTTPS answers them: the A and AAAA addresses of a name. */
export type Resolver = (host: string) => Promise<string[]>;

export interface TargetPolicy {
  /** http:// and loopback targets allowed (local mode only). */
  allowLocal: boolean;
  resolve: Resolver;
}

export type Verdict =
  | { ok: true; url: URL }
  /** `transient`: the check could not be made now (DNS unavailable); try again later. */
  | { ok: false; reason: string; transient?: boolean };

export const MAX_URL_LENGTH = 2048;
const DEFAULT_DOH = "https://cloudflare-dns.com/dns-query";
const DNS_TIMEOUT_MS = 3000;

/** Names that never reach a public host: special-use and private-use suffixes. */
const LOCAL_SUFFIXES = ["localhost", "local", "internal", "home.arpa", "lan", "intranet"];

/** The policy of a configuration: its resolver is DNS-over-HTTPS at WEBHOOKS_DNS_URL. */
export function policyOf(config: Config): TargetPolicy {
  return {
    allowLocal: config.WEBHOOKS_ALLOW_LOCAL === "on",
    resolve: dohResolver(config.WEBHOOKS_DNS_URL ?? DEFAULT_DOH),
  };
}

/** Everything that can be told from the URL alone; a host name still needs `checkTarget`. */
export function checkUrl(raw: string, allowLocal: boolean): Verdict {
  if (raw.length > MAX_URL_LENGTH) return refuse(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("is not a URL");
  }
  if (url.protocol !== "https:" && !(allowLocal && url.protocol === "http:")) {
    return refuse(allowLocal ? "must be an http or https URL" : "must be an https URL");
  }
  if (url.username || url.password) return refuse("must not carry a user name or password");
  if (url.hash) return refuse("must not have a #fragment");
  const host = hostOf(url);
  const literal = ipLiteral(host);
  if (literal) {
    const why = addressRefusal(literal, allowLocal);
    return why ? refuse(`${why} (${host})`) : { ok: true, url };
  }
  if (allowLocal && (host === "localhost" || host.endsWith(".localhost"))) return { ok: true, url };
  if (!host.includes(".")) return refuse(`names a host that is not a public DNS name (${host})`);
  const suffix = LOCAL_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix) return refuse(`names a local host (.${suffix}), not a public one`);
  return { ok: true, url };
}

/** The URL's check and, for a host name, every address it resolves to (A and AAAA). */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<Verdict> {
  const verdict = checkUrl(raw, policy.allowLocal);
  if (!verdict.ok) return verdict;
  const host = hostOf(verdict.url);
  if (ipLiteral(host)) return verdict;
  if (policy.allowLocal && (host === "localhost" || host.endsWith(".localhost"))) return verdict;
  let addresses: string[];
  try {
    addresses = await policy.resolve(host);
  } catch (err) {
    if (err instanceof HostNotFound) return refuse(`names a host that does not resolve (${host})`);
    return { ok: false, reason: `could not resolve ${host} now`, transient: true };
  }
  if (addresses.length === 0) return refuse(`names a host with no address (${host})`);
  for (const address of addresses) {
    const literal = ipLiteral(address);
    const why = literal ? addressRefusal(literal, policy.allowLocal) : "is not an IP address";
    if (why) return refuse(`names a host that resolves to ${address}, ${why}`);
  }
  return verdict;
}

const refuse = (reason: string): Verdict => ({ ok: false, reason });

/** The host without IPv6 brackets or a final dot, lower-case (the URL parser lowers it). */
function hostOf(url: URL): string {
  const host = url.hostname.replace(/\.$/, "");
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

type Ip = { v: 4; bytes: number[] } | { v: 6; groups: number[] };

/**
 * An IP address, or undefined for a name. The URL parser has already turned every IPv4 form
 * (decimal, hex, octal, short: 2130706433, 0x7f.1, 127.1) into dotted decimal.
 */
export function ipLiteral(host: string): Ip | undefined {
  const v4 = parseV4(host);
  if (v4) return { v: 4, bytes: v4 };
  const v6 = parseV6(host);
  return v6 ? { v: 6, groups: v6 } : undefined;
}

function parseV4(s: string): number[] | undefined {
  const m = s.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (!m) return undefined;
  const bytes = m.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function parseV6(s: string): number[] | undefined {
  if (!s.includes(":") || !/^[0-9a-f:.]+$/i.test(s)) return undefined;
  let text = s;
  const tail: number[] = [];
  // A dotted IPv4 last part (::ffff:127.0.0.1): two groups.
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const v4 = parseV4(dotted[2] as string);
    if (!v4) return undefined;
    tail.push(
      ((v4[0] as number) << 8) | (v4[1] as number),
      ((v4[2] as number) << 8) | (v4[3] as number),
    );
    text = (dotted[1] as string).endsWith("::")
      ? (dotted[1] as string)
      : (dotted[1] as string).slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const part = (h: string) => (h === "" ? [] : h.split(":"));
  const head = part(halves[0] as string);
  const rest = halves.length === 2 ? part(halves[1] as string) : [];
  const hex = [...head, ...rest];
  if (!hex.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const given = hex.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const zeros = Array<number>(8 - given).fill(0);
  const groups = [
    ...head.map((g) => Number.parseInt(g, 16)),
    ...(halves.length === 2 ? zeros : []),
    ...rest.map((g) => Number.parseInt(g, 16)),
    ...tail,
  ];
  return groups.length === 8 ? groups : undefined;
}

/** IPv4 ranges no webhook may reach, with what they are. */
const V4_REFUSED: Array<[number[], number, string]> = [
  [[0, 0, 0, 0], 8, "an unspecified address"],
  [[10, 0, 0, 0], 8, "a private address"],
  [[100, 64, 0, 0], 10, "a shared (CGNAT) address"],
  [[127, 0, 0, 0], 8, "a loopback address"],
  [[169, 254, 0, 0], 16, "a link-local address"],
  [[172, 16, 0, 0], 12, "a private address"],
  [[192, 0, 0, 0], 24, "a protocol-assignment address"],
  [[192, 0, 2, 0], 24, "a documentation address"],
  [[192, 88, 99, 0], 24, "a relay address"],
  [[192, 168, 0, 0], 16, "a private address"],
  [[198, 18, 0, 0], 15, "a benchmarking address"],
  [[198, 51, 100, 0], 24, "a documentation address"],
  [[203, 0, 113, 0], 24, "a documentation address"],
  [[224, 0, 0, 0], 4, "a multicast address"],
  [[240, 0, 0, 0], 4, "a reserved address"],
];

const v4Number = (b: number[]) =>
  (((b[0] as number) << 24) |
    ((b[1] as number) << 16) |
    ((b[2] as number) << 8) |
    (b[3] as number)) >>>
  0;

function v4Refusal(bytes: number[], allowLocal: boolean): string | undefined {
  const n = v4Number(bytes);
  for (const [base, prefix, what] of V4_REFUSED) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((n & mask) >>> 0 === v4Number(base)) {
      if (allowLocal && bytes[0] === 127) return undefined;
      return what;
    }
  }
  return undefined;
}

const v4Of = (g: number[], at: number) => [
  (g[at] as number) >> 8,
  (g[at] as number) & 0xff,
  (g[at + 1] as number) >> 8,
  (g[at + 1] as number) & 0xff,
];

/**
 * Why an address may not be a webhook's target, or undefined when it may. IPv6 must be global
 * unicast (2000::/3) outside the documentation and tunnelling ranges; an IPv6 form that embeds
 * an IPv4 address (mapped, compatible, NAT64, 6to4) is judged by that address.
 */
export function addressRefusal(ip: Ip, allowLocal = false): string | undefined {
  if (ip.v === 4) return v4Refusal(ip.bytes, allowLocal);
  const g = ip.groups;
  const zeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUntil(7) && g[7] === 1) return allowLocal ? undefined : "a loopback address";
  if (zeroUntil(8)) return "an unspecified address";
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 address itself.
  if (zeroUntil(5) && (g[5] === 0xffff || g[5] === 0)) return v4Refusal(v4Of(g, 6), allowLocal);
  // 64:ff9b::/96 (NAT64) and 64:ff9b:1::/48 (local-use NAT64).
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (g[2] === 1) return "a local-use NAT64 address";
    return v4Refusal(v4Of(g, 6), allowLocal);
  }
  const first = g[0] as number;
  if ((first & 0xfe00) === 0xfc00) return "a unique-local address";
  if ((first & 0xffc0) === 0xfe80) return "a link-local address";
  if ((first & 0xffc0) === 0xfec0) return "a site-local address";
  if ((first & 0xff00) === 0xff00) return "a multicast address";
  if ((first & 0xe000) !== 0x2000) return "a reserved address";
  if (first === 0x2001 && g[1] === 0x0db8) return "a documentation address";
  if (first === 0x3fff && (g[1] as number) < 0x1000) return "a documentation address";
  // 2001::/32 Teredo hides its IPv4 address; 2001:10::/28 and 2001:20::/28 are not routed.
  if (first === 0x2001 && (g[1] as number) < 0x0200) return "a special-purpose address";
  if (first === 0x2002) return v4Refusal(v4Of(g, 1), allowLocal) ?? undefined;
  return undefined;
}

/** The resolver's answer for a name that does not exist (NXDOMAIN). */
export class HostNotFound extends Error {}

interface DohAnswer {
  Status?: number;
  Answer?: Array<{ type?: number; data?: string }>;
}

/**
 * A resolver over DNS-over-HTTPS in its JSON form (Cloudflare's and Google's): A and AAAA at
 * once; every address of both answers, CNAMEs followed by the resolver.
 */
export function dohResolver(endpoint: string, fetcher: typeof fetch = fetch): Resolver {
  const ask = async (host: string, type: "A" | "AAAA"): Promise<DohAnswer> => {
    const url = new URL(endpoint);
    url.searchParams.set("name", host);
    url.searchParams.set("type", type);
    const res = await fetcher(url.toString(), {
      headers: { accept: "application/dns-json" },
      signal: AbortSignal.timeout(DNS_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`DNS-over-HTTPS answered HTTP ${res.status}`);
    return (await res.json()) as DohAnswer;
  };
  return async (host) => {
    const answers = await Promise.all([ask(host, "A"), ask(host, "AAAA")]);
    if (answers.some((a) => a.Status === 3)) throw new HostNotFound(host);
    if (answers.some((a) => a.Status !== 0)) throw new Error("DNS-over-HTTPS failed");
    return answers.flatMap((a) =>
      (a.Answer ?? [])
        .filter((r) => (r.type === 1 || r.type === 28) && typeof r.data === "string")
        .map((r) => r.data as string),
    );
  };
}
