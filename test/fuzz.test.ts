import { describe, expect, it } from "vitest";
import { type ApiResponse, expectError, memoryCount, newWallet, type Wallet } from "./helpers";

const HIGH = "\ud800";
const LOW = "\udc00";
const NUL = "\u0000";

/** The 422 of a failed field check; returns the failing paths. */
function expectIssues(res: ApiResponse, label: string): string[] {
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(422);
  const error = expectError(res, 422, "VALIDATION_ERROR");
  return (error.details.issues as Array<{ path: string }>).map((i) => i.path);
}

// ---------------------------------------------------------------------------------------------
// Query parameters: every GET route that reads a text parameter.

const QUERY_ROUTES: Array<[route: string, param: string]> = [
  ["/v1/memories", "namespace"],
  ["/v1/memories", "session_id"],
  ["/v1/memories", "agent_id"],
  ["/v1/memories", "tags"],
  ["/v1/memories/count", "namespace"],
  ["/v1/export", "namespace"],
  ["/v1/memories/search?q=coffee", "namespace"],
  ["/v1/memories/search", "q"],
  ["/v1/memories/core", "namespace"],
  ["/v1/core-memories", "agent_id"],
  ["/v1/suggested", "namespace"],
  ["/v1/namespaces", "agent_id"],
  ["/v1/stats", "namespace"],
  ["/v1/tags", "namespace"],
];

describe("NUL in a query parameter", () => {
  it.each(QUERY_ROUTES)("GET %s ?%s= answers 422 naming the parameter", async (route, param) => {
    const w = newWallet();
    const url = `${route}${route.includes("?") ? "&" : "?"}${param}=a%00b`;
    expect(expectIssues(await w.get(url), url)).toEqual([param]);
  });
});

// ---------------------------------------------------------------------------------------------
// Strings in bodies and in the ?metadata= filter: lone surrogates of either half, and NUL.

type BodyCase = [
  label: string,
  request: (w: Wallet, bad: string) => Promise<ApiResponse>,
  path: string,
];

/** A memory of the wallet for PATCH and relation cases. */
const memoryOf = (w: Wallet) => w.store("a memory to patch or relate");

const BODY_CASES: BodyCase[] = [
  ["store content", (w, s) => w.post("/v1/store", { content: `x${s}y` }), "content"],
  [
    "store metadata value",
    (w, s) => w.post("/v1/store", { content: "x", metadata: { k: s } }),
    "metadata.k",
  ],
  [
    "store metadata key",
    (w, s) => w.post("/v1/store", { content: "x", metadata: { [`k${s}`]: 1 } }),
    "metadata.k\uFFFD",
  ],
  [
    "store nested metadata value",
    (w, s) => w.post("/v1/store", { content: "x", metadata: { a: { b: [s] } } }),
    "metadata.a.b.0",
  ],
  ["store tag", (w, s) => w.post("/v1/store", { content: "x", tags: [s] }), "tags.0"],
  ["store namespace", (w, s) => w.post("/v1/store", { content: "x", namespace: s }), "namespace"],
  [
    "store session_id",
    (w, s) => w.post("/v1/store", { content: "x", session_id: s }),
    "session_id",
  ],
  ["store agent_id", (w, s) => w.post("/v1/store", { content: "x", agent_id: s }), "agent_id"],
  [
    "batch metadata value",
    (w, s) =>
      w.post("/v1/store/batch", {
        memories: [{ content: "ok" }, { content: "x", metadata: { k: s } }],
      }),
    "memories.1.metadata.k",
  ],
  [
    "batch metadata key",
    (w, s) => w.post("/v1/store/batch", { memories: [{ content: "x", metadata: { [s]: 1 } }] }),
    "memories.0.metadata.\uFFFD",
  ],
  [
    "import metadata value",
    (w, s) => w.post("/v1/import", { memories: [{ content: "x", metadata: { k: s } }] }),
    "memories.0.metadata.k",
  ],
  [
    "import metadata key",
    (w, s) => w.post("/v1/import", { memories: [{ content: "x", metadata: { [s]: "v" } }] }),
    "memories.0.metadata.\uFFFD",
  ],
  ...(["content", "namespace", "session_id", "agent_id"] as const).map(
    (field): BodyCase => [
      `PATCH ${field}`,
      async (w, s) => w.patch(`/v1/memories/${await memoryOf(w)}`, { [field]: `x${s}` }),
      field,
    ],
  ),
  [
    "PATCH tags",
    async (w, s) => w.patch(`/v1/memories/${await memoryOf(w)}`, { tags: ["ok", s] }),
    "tags.1",
  ],
  [
    "PATCH metadata",
    async (w, s) => w.patch(`/v1/memories/${await memoryOf(w)}`, { metadata: { k: s } }),
    "metadata.k",
  ],
  [
    "batch PATCH content",
    async (w, s) =>
      w.patch("/v1/memories/batch", { updates: [{ id: await memoryOf(w), content: s }] }),
    "updates.0.content",
  ],
  ["recall query", (w, s) => w.post("/v1/recall", { query: `q${s}` }), "query"],
  [
    "recall metadata filter",
    (w, s) => w.post("/v1/recall", { query: "q", filters: { metadata: { k: s } } }),
    "filters.metadata.k",
  ],
  ["search query", (w, s) => w.post("/v1/search", { query: `q${s}` }), "query"],
  ["context query", (w, s) => w.post("/v1/context", { query: `q${s}` }), "query"],
  [
    "relation metadata",
    async (w, s) =>
      w.post(`/v1/memories/${await memoryOf(w)}/relations`, {
        target_id: await w.store("another memory"),
        relation_type: "related_to",
        metadata: { k: s },
      }),
    "metadata.k",
  ],
  ["extract text", (w, s) => w.post("/v1/memories/extract", { text: `I like ${s} tea` }), "text"],
  [
    "ingest message",
    (w, s) => w.post("/v1/ingest", { messages: [{ role: "user", content: `I like ${s} tea` }] }),
    "messages.0.content",
  ],
  [
    "migrate file",
    (w, s) =>
      w.post("/v1/migrate", { files: [{ filename: "a.md", content: `## Notes\nSome text ${s}` }] }),
    "files.0.content",
  ],
];

/** Memories a case stores itself before the bad request (PATCH and relation targets). */
const fixturesOf = (label: string) =>
  label.startsWith("relation") ? 2 : label.includes("PATCH") ? 1 : 0;

describe.each([
  ["a lone high surrogate", HIGH],
  ["a lone low surrogate", LOW],
  ["NUL", NUL],
])("%s in a body string", (_name, bad) => {
  it.each(BODY_CASES)("%s answers 422 naming the field", async (label, send, path) => {
    const w = newWallet();
    const res = await send(w, bad);
    expect(expectIssues(res, label)).toEqual([path]);
    expect(await memoryCount(w)).toBe(fixturesOf(label));
  });

  it.each(["/v1/memories", "/v1/memories/count", "/v1/export"])(
    "GET %s ?metadata= filter answers 422 naming the field",
    async (route) => {
      const w = newWallet();
      const value = encodeURIComponent(JSON.stringify({ k: `v${bad}` }));
      expect(expectIssues(await w.get(`${route}?metadata=${value}`), route)).toEqual([
        "metadata.k",
      ]);
      const key = encodeURIComponent(JSON.stringify({ [`k${bad}`]: "v" }));
      expect(expectIssues(await w.get(`${route}?metadata=${key}`), route)).toEqual([
        "metadata.k\uFFFD",
      ]);
    },
  );
});

it("a surrogate pair (a real astral character) is stored and read back unchanged", async () => {
  const w = newWallet();
  const content = "an emoji \ud83d\ude00 and a key";
  const id = await w.store(content, { metadata: { "\ud83d\ude00": "\ud83c\udf89" } });
  const got = await w.get(`/v1/memories/${id}`);
  expect(got.body.content).toBe(content);
  expect(got.body.metadata["\ud83d\ude00"]).toBe("\ud83c\udf89");
});

// ---------------------------------------------------------------------------------------------
// Dates outside what timestamptz holds as a four-digit year.

const BAD_DATES = [
  "0000-01-01",
  "0000-12-31T23:59:59Z",
  "9999-12-31T23:59:59-23:59",
  "10000-01-01T00:00:00Z",
  "+010000-01-01T00:00:00Z",
  "-000001-01-01T00:00:00Z",
];

type DateCase = [
  label: string,
  request: (w: Wallet, date: string) => Promise<ApiResponse>,
  path: string,
];

const q = (date: string) => encodeURIComponent(date);

const DATE_CASES: DateCase[] = [
  [
    "store expires_at",
    (w, d) => w.post("/v1/store", { content: "x", expires_at: d }),
    "expires_at",
  ],
  [
    "batch expires_at",
    (w, d) => w.post("/v1/store/batch", { memories: [{ content: "x", expires_at: d }] }),
    "memories.0.expires_at",
  ],
  [
    "PATCH expires_at",
    async (w, d) => w.patch(`/v1/memories/${await memoryOf(w)}`, { expires_at: d }),
    "expires_at",
  ],
  ...["after", "since", "before", "until"].flatMap((param) =>
    ["/v1/memories", "/v1/memories/count", "/v1/export"].map(
      (route): DateCase => [
        `GET ${route} ?${param}=`,
        (w, d) => w.get(`${route}?${param}=${q(d)}`),
        param,
      ],
    ),
  ),
  ["GET search ?after=", (w, d) => w.get(`/v1/memories/search?q=x&after=${q(d)}`), "after"],
  ["search after", (w, d) => w.post("/v1/search", { query: "x", after: d }), "after"],
  ...(["after", "before"] as const).map(
    (field): DateCase => [
      `recall filters.${field}`,
      (w, d) => w.post("/v1/recall", { query: "x", filters: { [field]: d } }),
      `filters.${field}`,
    ],
  ),
  ...(["since", "until"] as const).map(
    (field): DateCase => [
      `recall ${field}`,
      (w, d) => w.post("/v1/recall", { query: "x", [field]: d }),
      field,
    ],
  ),
];

describe.each(BAD_DATES)("the date %s", (date) => {
  it.each(DATE_CASES)("%s answers 422 naming the field", async (label, send, path) => {
    const w = newWallet();
    expect(expectIssues(await send(w, date), label)).toEqual([path]);
    expect(await memoryCount(w)).toBe(label.includes("PATCH") ? 1 : 0);
  });
});

it("the first and last instants of years 1-9999 are accepted as filters and expiries", async () => {
  const w = newWallet();
  const id = await w.store("dated memory", { expires_at: "9999-12-31T23:59:59.999Z" });
  for (const path of [
    "/v1/memories?after=0001-01-01T00:00:00Z&until=9999-12-31T23:59:59.999Z",
    "/v1/memories/count?since=0001-01-01&before=9999-12-31T23:59:59.999Z",
    "/v1/export?before=9999-12-31T23:59:59.999%2B00:00",
  ]) {
    const res = await w.get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  }
  const list = await w.get("/v1/memories?until=9999-12-31T23:59:59.999Z");
  expect(list.body.memories.map((m: { id: string }) => m.id)).toEqual([id]);
  const recall = await w.post("/v1/recall", {
    query: "dated",
    filters: { after: "0001-01-01T00:00:00Z", before: "9999-12-31T23:59:59.999Z" },
  });
  expect(recall.status).toBe(200);
  expect(recall.body.memories.map((m: { id: string }) => m.id)).toEqual([id]);
});

// ---------------------------------------------------------------------------------------------
// Numbers too small for a `real`: importance keeps 6 decimals (what responses show).

describe("importance below the 6 decimals kept", () => {
  it.each([1e-320, 5e-324, 1e-40, 4e-7])(
    "%s is stored as 0 by store, batch and PATCH",
    async (n) => {
      const w = newWallet();
      const stored = await w.post("/v1/store", { content: "tiny importance", importance: n });
      expect(stored.status, JSON.stringify(stored.body)).toBe(201);
      expect((await w.get(`/v1/memories/${stored.body.id}`)).body.importance).toBe(0);

      const batch = await w.post("/v1/store/batch", {
        memories: [{ content: "another tiny importance, quite different words", importance: n }],
      });
      expect(batch.status, JSON.stringify(batch.body)).toBe(201);
      expect((await w.get(`/v1/memories/${batch.body.ids[0]}`)).body.importance).toBe(0);

      const id = await w.store("patched later", { importance: 0.7 });
      const patched = await w.patch(`/v1/memories/${id}`, { importance: n });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.importance).toBe(0);
    },
  );

  it("keeps 6 decimals of a larger value and refuses a tiny negative one", async () => {
    const w = newWallet();
    const id = await w.store("six decimals", { importance: 0.1234567 });
    expect((await w.get(`/v1/memories/${id}`)).body.importance).toBe(0.123457);
    expectIssues(await w.post("/v1/store", { content: "x", importance: -1e-320 }), "negative");
  });

  it("a denormal min_similarity is a valid recall threshold", async () => {
    const w = newWallet();
    await w.store("recall me please");
    const res = await w.post("/v1/recall", { query: "recall", min_similarity: 1e-320 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.memories).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Nesting: metadata holds 3 levels; no body may nest deep enough to overflow a recursive walk.

const deepObject = (levels: number, leaf = "1") =>
  `${'{"a":'.repeat(levels)}${leaf}${"}".repeat(levels)}`;
const deepArray = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

type DeepCase = [label: string, request: (w: Wallet, levels: number) => Promise<ApiResponse>];

const DEEP_CASES: DeepCase[] = [
  [
    "store metadata",
    (w, n) => w.raw("POST", "/v1/store", `{"content":"x","metadata":${deepObject(n)}}`),
  ],
  ["store body as arrays", (w, n) => w.raw("POST", "/v1/store", deepArray(n))],
  [
    "batch metadata",
    (w, n) =>
      w.raw(
        "POST",
        "/v1/store/batch",
        `{"memories":[{"content":"x","metadata":${deepObject(n)}}]}`,
      ),
  ],
  [
    "PATCH metadata",
    async (w, n) =>
      w.raw("PATCH", `/v1/memories/${await memoryOf(w)}`, `{"metadata":${deepObject(n)}}`),
  ],
  [
    "relation metadata",
    async (w, n) =>
      w.raw(
        "POST",
        `/v1/memories/${await memoryOf(w)}/relations`,
        `{"target_id":"${await w.store("another memory")}","relation_type":"related_to","metadata":${deepObject(n)}}`,
      ),
  ],
  [
    "recall metadata filter",
    (w, n) => w.raw("POST", "/v1/recall", `{"query":"x","filters":{"metadata":${deepObject(n)}}}`),
  ],
  ["auth session", (w, n) => w.raw("POST", "/auth/session", `{"address":${deepArray(n)}}`)],
];

describe.each([100_000, 1_000, 33])("a body nested %i deep", (levels) => {
  it.each(DEEP_CASES)("%s answers 422", async (label, send) => {
    const w = newWallet();
    expectIssues(await send(w, levels), label);
    expect(await memoryCount(w)).toBe(
      label.startsWith("relation") ? 2 : label.includes("PATCH") ? 1 : 0,
    );
  });
});

describe("metadata nesting", () => {
  it("3 levels are stored, 4 are a 422 on metadata", async () => {
    const w = newWallet();
    const ok = await w.post("/v1/store", { content: "x", metadata: { a: { b: { c: 1 } } } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const deep = await w.post("/v1/store", {
      content: "y",
      metadata: { a: { b: { c: { d: 1 } } } },
    });
    expect(expectIssues(deep, "4 levels")).toEqual(["metadata"]);
  });

  it.each(["/v1/memories", "/v1/memories/count", "/v1/export"])(
    "GET %s ?metadata= deeper than metadata can be answers 422",
    async (route) => {
      const w = newWallet();
      for (const levels of [4, 2_000]) {
        const filter = encodeURIComponent(deepObject(levels));
        expectIssues(await w.get(`${route}?metadata=${filter}`), `${route} ${levels}`);
      }
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Bytes that are not UTF-8: refused, never stored with U+FFFD in their place.

const utf8 = (s: string) => new TextEncoder().encode(s);
const withBytes = (before: string, bytes: number[], after: string) =>
  new Uint8Array([...utf8(before), ...bytes, ...utf8(after)]);

const INVALID_UTF8: Array<[name: string, bytes: number[]]> = [
  ["a lone 0xFF", [0xff]],
  ["an overlong slash", [0xc0, 0xaf]],
  ["an encoded surrogate", [0xed, 0xa0, 0x80]],
  ["a truncated sequence", [0xe2, 0x82]],
  ["a continuation byte alone", [0x80]],
];

const UTF8_ROUTES: Array<[method: string, path: (w: Wallet) => Promise<string>, field: string]> = [
  ["POST", async () => "/v1/store", "content"],
  ["PATCH", async (w) => `/v1/memories/${await memoryOf(w)}`, "content"],
  ["POST", async () => "/v1/recall", "query"],
  ["POST", async () => "/v1/search", "query"],
  ["POST", async () => "/v1/memories/extract", "text"],
];

describe.each(INVALID_UTF8)("a body with %s", (_name, bytes) => {
  it.each(UTF8_ROUTES)("%s answers 422 and stores nothing", async (method, pathOf, field) => {
    const w = newWallet();
    const path = await pathOf(w);
    const res = await w.raw(method, path, withBytes(`{"${field}":"caf`, bytes, ` au lait"}`));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(expectError(res, 422, "VALIDATION_ERROR").message).toMatch(/UTF-8/);
    expect(await memoryCount(w)).toBe(method === "PATCH" ? 1 : 0);
  });

  it("the memory store keeps the batch out entirely", async () => {
    const w = newWallet();
    const body = withBytes('{"memories":[{"content":"fine"},{"content":"caf', bytes, '"}]}');
    expectError(await w.raw("POST", "/v1/store/batch", body), 422, "VALIDATION_ERROR");
    expect(await memoryCount(w)).toBe(0);
  });
});

it("valid multi-byte UTF-8 is stored as sent", async () => {
  const w = newWallet();
  const res = await w.raw("POST", "/v1/store", utf8('{"content":"café, 東京, 😀"}'));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await w.get(`/v1/memories/${res.body.id}`)).body.content).toBe("café, 東京, 😀");
});

// ---------------------------------------------------------------------------------------------
// A migrate larger than one INSERT's 65,535 bind parameters (12 a row: 5,462 rows).

it("migrate with 6,100 sections stores them all", { timeout: 180_000 }, async () => {
  const w = newWallet();
  const sections = 6_100;
  const perFile = 1_220;
  const files = Array.from({ length: sections / perFile }, (_, f) => ({
    filename: `notes-${f}.md`,
    content: Array.from(
      { length: perFile },
      (_, i) => `## Note ${f}-${i}\nThe number ${f * perFile + i} is written down here.`,
    ).join("\n\n"),
  }));
  const res = await w.post("/v1/migrate", { files });
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
  expect(res.body.files_processed).toBe(files.length);
  expect(res.body.memories_created).toBe(sections);
  expect(res.body.memories_deduplicated).toBe(0);
  expect(await memoryCount(w)).toBe(sections);

  // Importing the same files again finds every section already stored.
  const again = await w.post("/v1/migrate", { files });
  expect(again.status).toBe(201);
  expect(again.body.memories_created).toBe(0);
  expect(again.body.memories_deduplicated).toBe(sections);
  // Every section is reported by the memory that holds it, the same one both times.
  expect(res.body.memory_ids).toHaveLength(sections);
  expect(again.body.memory_ids).toEqual(res.body.memory_ids);
});
