/**
 * Nesting: metadata holds 3 levels; no body may nest deep enough to overflow a recursive
 * walk (422, never a crash).
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, newWallet, type Wallet } from "../helpers";
import { expectIssues, memoryOf } from "./fixtures";

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
    expect(await w.memoryCount()).toBe(
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
