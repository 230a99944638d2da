/** Dates beyond a four-digit year and numbers too small for a `real`, at every field taking one. */
import { describe, expect, it } from "vitest";
import { type ApiResponse, newWallet, type Wallet } from "../helpers";
import { expectIssues, memoryOf } from "./fixtures";

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
    expect(await w.memoryCount()).toBe(label.includes("PATCH") ? 1 : 0);
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
