/** What the core (pinned) memories tests share: the core list and pinning. */
import { expect } from "vitest";
import type { Json, Wallet } from "../../../helpers";

/** GET /v1/memories/core (or an alias, `path`), which must answer 200 (`query` without "?"). */
export async function core(w: Wallet, query = "", path = "/v1/memories/core"): Promise<Json> {
  const res = await w.get(`${path}${query ? `?${query}` : ""}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** POST /v1/memories/core, which must pin the memory. */
export async function pin(w: Wallet, id: string) {
  const res = await w.post("/v1/memories/core", { memory_id: id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ pinned: true, id });
}
