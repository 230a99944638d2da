/**
 * Pure unit tests of the domain helpers: field schemas and limits, export formatting, the
 * graph walk, token counting and wallet signature checks. No HTTP, no database.
 */
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  AUTH_TOLERANCE_SECONDS,
  verifyWalletHeader,
  verifyWalletSignature,
} from "../worker/auth/wallet";
import { countTokens } from "../worker/lib/tokens";
import { csvField, type ExportedMemory, toCsv, toMarkdown } from "../worker/memories/export-format";
import {
  csv,
  isoDate,
  jsonDepth,
  LIMITS,
  mergeTags,
  metadata,
  queryBool,
  queryInt,
  tag,
  tags,
  uuid,
} from "../worker/memories/fields";
import { type Edge, walkGraph } from "../worker/memories/graph-walk";
import { MEMORY_DEFAULTS } from "./fixtures";

describe("fields: jsonDepth", () => {
  it("counts nesting levels of objects and arrays", () => {
    expect(jsonDepth(null)).toBe(0);
    expect(jsonDepth(undefined)).toBe(0);
    expect(jsonDepth(42)).toBe(0);
    expect(jsonDepth("text")).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth([])).toBe(1);
    expect(jsonDepth({ a: 1, b: "x" })).toBe(1);
    expect(jsonDepth({ a: { b: 1 } })).toBe(2);
    expect(jsonDepth({ a: { b: { c: 1 } } })).toBe(3);
    expect(jsonDepth({ a: [1, [2]] })).toBe(3);
    expect(jsonDepth({ shallow: 1, deep: { x: { y: { z: 1 } } } })).toBe(4);
    expect(jsonDepth([{ a: null }])).toBe(2);
  });
});

describe("fields: metadata", () => {
  const ok = (v: unknown) => metadata.safeParse(v).success;

  it("accepts objects within the limits", () => {
    expect(ok({})).toBe(true);
    expect(ok({ a: 1, b: "two", c: [1, 2], d: { e: { f: true } } })).toBe(true);
    expect(ok({ tags: ["a", "b"] })).toBe(true);
  });

  it("rejects non-objects", () => {
    for (const v of [null, "string", 5, [1, 2], true]) expect(ok(v)).toBe(false);
  });

  it("allows at most 20 keys", () => {
    const keys = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(LIMITS.metadataKeys).toBe(20);
    expect(ok(keys(20))).toBe(true);
    expect(ok(keys(21))).toBe(false);
  });

  it("allows at most 4,096 bytes of JSON, counted in UTF-8", () => {
    // {"k":"…"} is 8 bytes plus the value.
    expect(ok({ k: "x".repeat(4088) })).toBe(true);
    expect(ok({ k: "x".repeat(4089) })).toBe(false);
    // "é" is two bytes in UTF-8: 2,044 of them make 4,096 bytes, 2,045 too many.
    expect(ok({ k: "é".repeat(2044) })).toBe(true);
    expect(ok({ k: "é".repeat(2045) })).toBe(false);
  });

  it("allows at most 3 levels of nesting", () => {
    expect(ok({ a: { b: { c: 1 } } })).toBe(true);
    expect(ok({ a: { b: { c: { d: 1 } } } })).toBe(false);
    expect(ok({ a: [[1]] })).toBe(true);
    expect(ok({ a: [[[1]]] })).toBe(false);
  });

  it("validates metadata.tags with the tag rules", () => {
    const res = metadata.safeParse({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.path).toEqual(["tags"]);
    const long = metadata.safeParse({ tags: ["ok", "x".repeat(65)] });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.path).toEqual(["tags", 1]);
    expect(ok({ tags: "not-an-array" })).toBe(false);
    expect(ok({ tags: [1, 2] })).toBe(false);
  });
});

describe("fields: tags", () => {
  it("allows 10 tags of 1 to 64 characters", () => {
    expect(tags.safeParse(Array.from({ length: 10 }, (_, i) => `t${i}`)).success).toBe(true);
    expect(tags.safeParse(Array.from({ length: 11 }, (_, i) => `t${i}`)).success).toBe(false);
    expect(tag.safeParse("x".repeat(64)).success).toBe(true);
    expect(tag.safeParse("x".repeat(65)).success).toBe(false);
    expect(tag.safeParse("").success).toBe(false);
    expect(tags.safeParse([]).success).toBe(true);
    expect(tags.safeParse(["a", 1]).success).toBe(false);
  });
});

describe("fields: isoDate", () => {
  it("parses ISO 8601 dates and date-times to Dates", () => {
    expect(isoDate.parse("2024-05-01T10:20:30.123Z").toISOString()).toBe(
      "2024-05-01T10:20:30.123Z",
    );
    expect(isoDate.parse("2024-05-01T10:20:30+02:00").toISOString()).toBe(
      "2024-05-01T08:20:30.000Z",
    );
    expect(isoDate.parse("2024-05-01").toISOString()).toBe("2024-05-01T00:00:00.000Z");
    expect(isoDate.parse("2024-05-01T10:20Z").toISOString()).toBe("2024-05-01T10:20:00.000Z");
  });

  it("rejects anything else", () => {
    for (const s of [
      "",
      "yesterday",
      "1714557600",
      "01/05/2024",
      "2024-5-1",
      "2024-13-01",
      "2024-05-01T25:00:00Z",
      "2024-05-01Tnoon",
    ]) {
      expect(isoDate.safeParse(s).success, s).toBe(false);
    }
  });
});

describe("fields: query-string helpers", () => {
  it("csv splits on commas, trims and drops empty items", () => {
    expect(csv.parse("a,b")).toEqual(["a", "b"]);
    expect(csv.parse(" a , ,b ,")).toEqual(["a", "b"]);
    expect(csv.parse(["a,b", "c"])).toEqual(["a", "b", "c"]);
    expect(csv.parse("")).toEqual([]);
    expect(csv.parse("single")).toEqual(["single"]);
  });

  it("queryInt enforces whole numbers within bounds, with a fallback", () => {
    const q = queryInt(1, 5, 2);
    expect(q.parse(undefined)).toBe(2);
    expect(q.parse("1")).toBe(1);
    expect(q.parse("5")).toBe(5);
    expect(q.parse("05")).toBe(5);
    for (const s of ["0", "6", "-1", "2.5", "abc", "", " 3", "1e1"]) {
      expect(q.safeParse(s).success, s).toBe(false);
    }
    const zero = queryInt(0, 10, 0);
    expect(zero.parse("0")).toBe(0);
    expect(zero.parse(undefined)).toBe(0);
  });

  it("queryBool accepts true/false/1/0 only", () => {
    expect(queryBool.parse("true")).toBe(true);
    expect(queryBool.parse("1")).toBe(true);
    expect(queryBool.parse("false")).toBe(false);
    expect(queryBool.parse("0")).toBe(false);
    for (const s of ["yes", "TRUE", "maybe", ""])
      expect(queryBool.safeParse(s).success).toBe(false);
  });

  it("uuid accepts either case and yields lower case", () => {
    const id = "0F8FAD5B-D9CB-469F-A165-70867728950E";
    expect(uuid.parse(id)).toBe(id.toLowerCase());
    expect(uuid.parse(id.toLowerCase())).toBe(id.toLowerCase());
    for (const s of ["not-a-uuid", "", "0f8fad5b-d9cb-469f-a165-70867728950", 12]) {
      expect(uuid.safeParse(s).success).toBe(false);
    }
  });
});

describe("fields: mergeTags", () => {
  it("merges lists in order without repeats", () => {
    expect(mergeTags(["a", "b"], undefined, ["b", "c", "a"])).toEqual(["a", "b", "c"]);
    expect(mergeTags(["x"], ["y"])).toEqual(["x", "y"]);
    expect(mergeTags(undefined, ["y", "y"])).toEqual(["y"]);
    expect(mergeTags()).toEqual([]);
    expect(mergeTags([], undefined)).toEqual([]);
    // Case-sensitive: "A" and "a" are different tags.
    expect(mergeTags(["A"], ["a"])).toEqual(["A", "a"]);
  });
});

describe("export-format: csvField", () => {
  it("leaves plain values unquoted", () => {
    expect(csvField("plain text")).toBe("plain text");
    expect(csvField(0.5)).toBe("0.5");
    expect(csvField(12)).toBe("12");
    expect(csvField(true)).toBe("true");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField("")).toBe("");
  });

  it("quotes fields with commas, quotes or line breaks, doubling quotes", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line1\nline2")).toBe('"line1\nline2"');
    expect(csvField("line1\r\nline2")).toBe('"line1\r\nline2"');
    expect(csvField('"')).toBe('""""');
  });

  it("serialises objects and arrays as JSON", () => {
    expect(csvField({ a: "x,y" })).toBe('"{""a"":""x,y""}"');
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
    expect(csvField([1, 2])).toBe('"[1,2]"');
  });

  it("prefixes cells a spreadsheet would run as formulas", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-1")).toBe("'-1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tcell")).toBe("'\tcell");
    expect(csvField("\rcell")).toBe('"\'\rcell"');
    // Prefixed first, then quoted when needed.
    expect(csvField('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    // Only a leading character counts.
    expect(csvField("a=b")).toBe("a=b");
    expect(csvField("1-2")).toBe("1-2");
  });
});

const memory = (over: Partial<ExportedMemory> = {}): ExportedMemory => ({
  ...MEMORY_DEFAULTS,
  id: "11111111-1111-4111-8111-111111111111",
  content: "Plain content",
  created_at: "2024-05-01T10:00:00.000Z",
  updated_at: "2024-05-01T10:00:00.000Z",
  access_count: 0,
  ...over,
});

const HEADER =
  "id,namespace,content,memory_type,importance,tags,session_id,agent_id,pinned,immutable," +
  "expires_at,created_at,updated_at,access_count,deleted_at,metadata";

describe("export-format: toCsv", () => {
  it("writes only the header for no rows", () => {
    expect(toCsv([])).toBe(`${HEADER}\r\n`);
  });

  it("writes one CRLF-terminated line per memory", () => {
    const rows = [
      memory({
        tags: ["a", "b"],
        session_id: "s1",
        agent_id: "bot",
        pinned: true,
        metadata: { k: "v" },
        importance: 0.75,
        memory_type: "decision",
        access_count: 3,
      }),
      memory({
        id: "22222222-2222-4222-8222-222222222222",
        namespace: "notes",
        content: 'Quote "this", please',
        expires_at: "2030-01-01T00:00:00.000Z",
        deleted_at: "2024-06-01T00:00:00.000Z",
        immutable: true,
      }),
    ];
    expect(toCsv(rows)).toBe(
      `${HEADER}\r\n` +
        "11111111-1111-4111-8111-111111111111,default,Plain content,decision,0.75,a;b,s1,bot," +
        'true,false,,2024-05-01T10:00:00.000Z,2024-05-01T10:00:00.000Z,3,,"{""k"":""v""}"\r\n' +
        '22222222-2222-4222-8222-222222222222,notes,"Quote ""this"", please",general,0.5,,,,' +
        "false,true,2030-01-01T00:00:00.000Z,2024-05-01T10:00:00.000Z,2024-05-01T10:00:00.000Z," +
        "0,2024-06-01T00:00:00.000Z,{}\r\n",
    );
  });

  it("neutralises formulas in content and tags", () => {
    const out = toCsv([memory({ content: "=cmd|' /C calc'!A0", tags: ["@admin"] })]);
    const line = out.split("\r\n")[1];
    expect(line).toContain(",'=cmd|' /C calc'!A0,");
    expect(line).toContain(",'@admin,");
  });
});

describe("export-format: toMarkdown", () => {
  it("groups memories under their namespace in first-seen order", () => {
    const md = toMarkdown([
      memory({ namespace: "work", content: "  First work item  " }),
      memory({ namespace: "home", content: "Home item" }),
      memory({
        namespace: "work",
        content: "Second work item",
        tags: ["x", "y"],
        session_id: "s9",
        agent_id: "a9",
        expires_at: "2030-01-01T00:00:00.000Z",
        pinned: true,
        immutable: true,
        deleted_at: "2024-06-01T00:00:00.000Z",
        memory_type: "decision",
        importance: 0.9,
      }),
    ]);
    const lines = md.split("\n");
    expect(lines.slice(0, 4)).toEqual(["# Memory export", "", "3 memories.", ""]);
    const headings = lines.filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## work", "## home"]);
    const at = (s: string) => md.indexOf(s);
    expect(at("## work")).toBeLessThan(at("First work item"));
    expect(at("First work item")).toBeLessThan(at("Second work item"));
    expect(at("Second work item")).toBeLessThan(at("## home"));
    expect(at("## home")).toBeLessThan(at("Home item"));
    // Content is trimmed; flags and optional lines appear only when set.
    expect(lines).toContain("First work item");
    expect(md).toContain("### general · importance 0.5\n");
    expect(md).toContain("### decision · importance 0.9 · pinned, immutable, deleted\n");
    expect(md).toContain("- tags: `x`, `y`");
    expect(md).toContain("- session: s9");
    expect(md).toContain("- agent: a9");
    expect(md).toContain("- expires: 2030-01-01T00:00:00.000Z");
    expect(md.match(/- tags:/g)).toHaveLength(1);
    expect(md.match(/- session:/g)).toHaveLength(1);
    expect(md.match(/- id: `11111111-1111-4111-8111-111111111111`/g)).toHaveLength(3);
    expect(md.match(/- created: 2024-05-01T10:00:00.000Z/g)).toHaveLength(3);
  });

  it("renders an empty export", () => {
    expect(toMarkdown([])).toBe("# Memory export\n\n0 memories.\n");
  });
});

describe("graph-walk: walkGraph", () => {
  const e = (source_id: string, target_id: string, relation_type = "related_to"): Edge => ({
    source_id,
    target_id,
    relation_type,
  });

  /** edgesOf over an in-memory edge list, recording each frontier it is asked about. */
  function store(edges: Edge[]) {
    const calls: string[][] = [];
    const edgesOf = async (frontier: string[]) => {
      calls.push([...frontier]);
      return edges.filter((x) => frontier.includes(x.source_id) || frontier.includes(x.target_id));
    };
    return { calls, edgesOf };
  }

  const keys = (edges: Edge[]) =>
    edges.map((x) => `${x.source_id}>${x.target_id}:${x.relation_type}`).sort();

  const chain = [e("A", "B"), e("B", "C"), e("C", "D"), e("D", "E"), e("E", "F")];

  it("stops at maxDepth and reports the depth reached", async () => {
    const s = store(chain);
    const r = await walkGraph("A", s.edgesOf, { maxDepth: 2, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "B>C:related_to"]);
    expect(r.depth).toBe(2);
    expect(s.calls).toEqual([["A"], ["B"]]);
  });

  it("ends early when the graph is exhausted", async () => {
    const s = store(chain);
    const r = await walkGraph("A", s.edgesOf, { maxDepth: 10, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C", "D", "E", "F"]);
    expect(r.edges).toHaveLength(5);
    expect(r.depth).toBe(5);
    // Level 6 asks about F, finds nothing new, and the walk ends.
    expect(s.calls).toEqual([["A"], ["B"], ["C"], ["D"], ["E"], ["F"]]);
  });

  it("reports depth 0 and nothing else for an isolated root", async () => {
    const s = store([e("X", "Y")]);
    expect(await walkGraph("A", s.edgesOf, { maxDepth: 3, maxNodes: 50 })).toEqual({
      nodeIds: [],
      edges: [],
      depth: 0,
    });
    expect(s.calls).toEqual([["A"]]);
  });

  it("follows relations in both directions", async () => {
    const s = store(chain);
    const r = await walkGraph("D", s.edgesOf, { maxDepth: 5, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["C", "E", "B", "F", "A"]);
    expect(r.depth).toBe(3);
    expect(r.edges).toHaveLength(5);
    const incoming = await walkGraph("F", store(chain).edgesOf, { maxDepth: 2, maxNodes: 50 });
    expect(incoming.nodeIds).toEqual(["E", "D"]);
  });

  it("visits each memory of a cycle once", async () => {
    const s = store([e("A", "B"), e("B", "C"), e("C", "A")]);
    const r = await walkGraph("A", s.edgesOf, { maxDepth: 5, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "B>C:related_to", "C>A:related_to"]);
    expect(r.depth).toBe(1);
    expect(s.calls).toEqual([["A"], ["B", "C"]]);
  });

  it("caps the memories at maxNodes, root included, and drops edges to the rest", async () => {
    const star = [e("A", "B"), e("A", "C"), e("A", "D"), e("D", "E")];
    const r = await walkGraph("A", store(star).edgesOf, { maxDepth: 5, maxNodes: 3 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "A>C:related_to"]);
    expect(r.depth).toBe(1);

    const one = await walkGraph("A", store(star).edgesOf, { maxDepth: 5, maxNodes: 1 });
    expect(one).toEqual({ nodeIds: [], edges: [], depth: 0 });

    const capChain = await walkGraph("A", store(chain).edgesOf, { maxDepth: 5, maxNodes: 4 });
    expect(capChain.nodeIds).toEqual(["B", "C", "D"]);
    expect(capChain.edges).toHaveLength(3);
    expect(capChain.depth).toBe(3);
  });

  it("keeps each edge once but parallel edges of different types apart", async () => {
    const edges = [e("A", "B", "supports"), e("A", "B", "related_to"), e("B", "C", "supports")];
    // A store that reports every edge twice.
    const twice = async (frontier: string[]) => {
      const hit = edges.filter(
        (x) => frontier.includes(x.source_id) || frontier.includes(x.target_id),
      );
      return [...hit, ...hit];
    };
    const r = await walkGraph("A", twice, { maxDepth: 3, maxNodes: 50 });
    expect(r.nodeIds).toEqual(["B", "C"]);
    expect(keys(r.edges)).toEqual(["A>B:related_to", "A>B:supports", "B>C:supports"]);
  });

  it("adds edges between memories of the same level without deepening", async () => {
    const tri = [e("A", "B"), e("A", "C"), e("B", "C", "supports")];
    const shallow = await walkGraph("A", store(tri).edgesOf, { maxDepth: 1, maxNodes: 50 });
    expect(keys(shallow.edges)).toEqual(["A>B:related_to", "A>C:related_to"]);
    const deeper = await walkGraph("A", store(tri).edgesOf, { maxDepth: 2, maxNodes: 50 });
    expect(deeper.nodeIds).toEqual(["B", "C"]);
    expect(keys(deeper.edges)).toEqual(["A>B:related_to", "A>C:related_to", "B>C:supports"]);
    expect(deeper.depth).toBe(1);
  });
});

describe("tokens: countTokens", () => {
  it("counts words by 4 letters, numbers by 3 digits, and each other symbol as one", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("   \n\t ")).toBe(0);
    expect(countTokens("abcd")).toBe(1);
    expect(countTokens("hello")).toBe(2);
    expect(countTokens("hello world")).toBe(4);
    expect(countTokens("123")).toBe(1);
    expect(countTokens("12345")).toBe(2);
    expect(countTokens("a, b!")).toBe(4);
    expect(countTokens("abc123")).toBe(2);
    expect(countTokens("héllo wörld")).toBe(4);
    expect(countTokens("日本語")).toBe(1);
    expect(countTokens("👍")).toBe(1);
    expect(countTokens("x".repeat(400))).toBe(100);
  });
});

describe("auth: verifyWalletSignature", () => {
  const account = privateKeyToAccount(
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  );
  const other = privateKeyToAccount(
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  );
  const PREFIX = "service-auth";
  const TS = 1_700_000_000;
  const sign = (ts = TS, prefix = PREFIX, by = account) =>
    by.signMessage({ message: `${prefix}:${ts}` });

  it("accepts a valid signature and returns the wallet in lower case", async () => {
    const sig = await sign();
    expect(await verifyWalletSignature(account.address, TS, sig, PREFIX, TS)).toEqual({
      ok: true,
      wallet: account.address.toLowerCase(),
    });
    // Lower-case address and a signature without 0x are accepted too.
    expect(
      await verifyWalletSignature(account.address.toLowerCase(), TS, sig.slice(2), PREFIX, TS),
    ).toEqual({ ok: true, wallet: account.address.toLowerCase() });
  });

  it("allows 300 seconds of clock difference either way, and not one more", async () => {
    expect(AUTH_TOLERANCE_SECONDS).toBe(300);
    const sig = await sign();
    const at = (now: number) => verifyWalletSignature(account.address, TS, sig, PREFIX, now);
    expect((await at(TS + 300)).ok).toBe(true);
    expect((await at(TS - 300)).ok).toBe(true);
    const old = await at(TS + 301);
    expect(old).toEqual({ ok: false, reason: "Timestamp expired or too far in the future" });
    const future = await at(TS - 301);
    expect(future).toEqual({ ok: false, reason: "Timestamp expired or too far in the future" });
  });

  it("rejects a signature of another message, prefix or wallet", async () => {
    const bad = { ok: false, reason: "Invalid signature" };
    expect(
      await verifyWalletSignature(account.address, TS, await sign(TS + 1), PREFIX, TS),
    ).toEqual(bad);
    expect(
      await verifyWalletSignature(account.address, TS, await sign(TS, "memoclaw-auth"), PREFIX, TS),
    ).toEqual(bad);
    expect(
      await verifyWalletSignature(account.address, TS, await sign(TS, PREFIX, other), PREFIX, TS),
    ).toEqual(bad);
    // The configured prefix is what is checked.
    expect(
      (
        await verifyWalletSignature(
          account.address,
          TS,
          await sign(TS, "memoclaw-auth"),
          "memoclaw-auth",
          TS,
        )
      ).ok,
    ).toBe(true);
  });

  it("rejects malformed input without throwing", async () => {
    const sig = await sign();
    expect(await verifyWalletSignature("0x1234", TS, sig, PREFIX, TS)).toEqual({
      ok: false,
      reason: "Invalid wallet address",
    });
    expect(await verifyWalletSignature(account.address, 1.5, sig, PREFIX, 1)).toEqual({
      ok: false,
      reason: "Invalid timestamp",
    });
    expect(await verifyWalletSignature(account.address, TS, "0xdeadbeef", PREFIX, TS)).toEqual({
      ok: false,
      reason: "Invalid signature format",
    });
    // Right length, but not a valid signature (bad recovery byte and flipped bits).
    const mangled = `${sig.slice(0, 10)}${sig[10] === "0" ? "1" : "0"}${sig.slice(11, -2)}ff`;
    const res = await verifyWalletSignature(account.address, TS, mangled, PREFIX, TS);
    expect(res.ok).toBe(false);
  });

  it("verifyWalletHeader parses address:timestamp:signature", async () => {
    const now = Math.floor(Date.now() / 1000);
    const sig = await sign(now);
    expect(await verifyWalletHeader(`${account.address}:${now}:${sig}`, PREFIX)).toEqual({
      ok: true,
      wallet: account.address.toLowerCase(),
    });
    expect((await verifyWalletHeader(`${account.address}:${now}`, PREFIX)).ok).toBe(false);
    expect((await verifyWalletHeader(`${account.address}:soon:${sig}`, PREFIX)).ok).toBe(false);
    expect((await verifyWalletHeader(`${account.address}:${now - 301}:${sig}`, PREFIX)).ok).toBe(
      false,
    );
  });
});
