/**
 * Strings no column can hold: NUL and lone surrogates, in query parameters, in body strings
 * and in the ?metadata= filter, each a 422 naming the field, with nothing stored.
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, newWallet, type Wallet } from "../helpers";
import { expectIssues, HIGH, LOW, memoryOf, NUL } from "./fixtures";

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
    expect(await w.memoryCount()).toBe(fixturesOf(label));
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
