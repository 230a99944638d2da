/** What the POST /v1/ingest tests share: the call, with the checks every answer must pass. */
import { expect } from "vitest";
import type { Json, Wallet } from "../../helpers";

const RESPONSE_KEYS = [
  "facts_deduplicated",
  "facts_extracted",
  "facts_stored",
  "memories_created",
  "memory_ids",
  "relations_created",
  "tokens_used",
];

export async function ingest(w: Wallet, body: Record<string, unknown>): Promise<Json> {
  const res = await w.post("/v1/ingest", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(Object.keys(res.body).sort()).toEqual(RESPONSE_KEYS);
  expect(res.body.memories_created).toBe(res.body.facts_stored);
  return res.body;
}
