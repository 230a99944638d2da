/** What the tests of the memories routes (list, get, update, relations, graph, history) share. */
import { expect } from "vitest";
import {
  type ApiResponse,
  expectError,
  expectStatus,
  ids,
  type Json,
  MISSING_ID,
  newWallet,
  type Wallet,
} from "../../helpers";

/**
 * Lexically unrelated sentences, so the store's deduplication (cosine ≥ 0.95) never merges
 * two of them: every test that needs N distinct memories takes them from here.
 */
export const TEXTS = [
  "Volcanic eruptions reshape island coastlines over centuries",
  "Glacier meltwater feeds alpine rivers every summer",
  "Sourdough bread needs a lively starter and patience",
  "Jazz musicians improvise over complex chord changes",
  "Quantum computers exploit superposition of qubits",
  "Octopuses can change skin colour almost instantly",
  "Medieval castles had thick stone walls and moats",
  "Honeybees communicate flower locations by dancing",
  "Chess openings reward careful study of pawn structure",
  "Saturn's rings consist mostly of water ice particles",
] as const;

export function text(i: number): string {
  const t = TEXTS[i];
  if (t === undefined) throw new Error(`no text ${i}`);
  return t;
}

/** Stores `n` distinct memories (the first `n` of TEXTS). */
export async function storeTexts(w: Wallet, n: number, fields: Record<string, unknown> = {}) {
  if (n > TEXTS.length) throw new Error(`only ${TEXTS.length} texts`);
  return w.storeAll(TEXTS.slice(0, n), fields);
}

export async function graph(w: Wallet, id: string, query = ""): Promise<Json> {
  return expectStatus(await w.get(`/v1/memories/${id}/graph${query}`), 200);
}

/**
 * A read under a memory's path (`/v1/memories/:id/<sub>`) answers 404 to another wallet, for
 * an unknown id and once the memory is deleted, and 422 for a malformed id. Deletes `id`.
 */
export async function expectOwnLiveMemoryOnly(w: Wallet, id: string, sub: string): Promise<void> {
  expectError(await newWallet().get(`/v1/memories/${id}/${sub}`), 404, "NOT_FOUND");
  expectError(await w.get(`/v1/memories/${MISSING_ID}/${sub}`), 404, "NOT_FOUND");
  expectError(await w.get(`/v1/memories/not-a-uuid/${sub}`), 422, "VALIDATION_ERROR");
  expect((await w.del(`/v1/memories/${id}`)).status).toBe(200);
  expectError(await w.get(`/v1/memories/${id}/${sub}`), 404, "NOT_FOUND");
}

/**
 * `send` (a request about one memory, made by a wallet) answers 404 for an unknown id, for the
 * owner's deleted memory and for another wallet's live memory (stored with `fields`). Returns
 * the owner, the other wallet and that memory's id, to check that it was left alone.
 */
export async function expectNotFoundUnlessOwnLive(
  send: (w: Wallet, id: string) => Promise<ApiResponse>,
  fields: Record<string, unknown> = {},
) {
  const owner = newWallet();
  const other = newWallet();
  const id = await owner.store(text(0), fields);
  const gone = await owner.store(text(1));
  expect((await owner.del(`/v1/memories/${gone}`)).status).toBe(200);
  expectError(await send(owner, MISSING_ID), 404, "NOT_FOUND");
  expectError(await send(owner, gone), 404, "NOT_FOUND");
  expectError(await send(other, id), 404, "NOT_FOUND");
  return { owner, other, id };
}

export async function patchOk(w: Wallet, id: string, body: unknown): Promise<Json> {
  return expectStatus(await w.patch(`/v1/memories/${id}`, body), 200);
}

export async function history(w: Wallet, id: string): Promise<Json[]> {
  return expectStatus(await w.get(`/v1/memories/${id}/history`), 200).history;
}

/** The ids POST /v1/search (keyword search) finds for `query`. */
export async function searchIds(w: Wallet, query: string): Promise<string[]> {
  return ids(expectStatus(await w.post("/v1/search", { query }), 200));
}

/** An ISO timestamp `ms` from now. */
export const future = (ms: number) => new Date(Date.now() + ms).toISOString();

/** GET /v1/memories, which must answer 200 (`query` without its "?"). */
export async function list(w: Wallet, query = ""): Promise<Json> {
  return expectStatus(await w.get(`/v1/memories${query ? `?${query}` : ""}`), 200);
}
