/** Bytes that are not UTF-8 are refused, never stored with U+FFFD in their place. */
import { describe, expect, it } from "vitest";
import { expectError, newWallet, type Wallet } from "../helpers";
import { memoryOf } from "./fixtures";

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
    expect(await w.memoryCount()).toBe(method === "PATCH" ? 1 : 0);
  });

  it("the memory store keeps the batch out entirely", async () => {
    const w = newWallet();
    const body = withBytes('{"memories":[{"content":"fine"},{"content":"caf', bytes, '"}]}');
    expectError(await w.raw("POST", "/v1/store/batch", body), 422, "VALIDATION_ERROR");
    expect(await w.memoryCount()).toBe(0);
  });
});

it("valid multi-byte UTF-8 is stored as sent", async () => {
  const w = newWallet();
  const res = await w.raw("POST", "/v1/store", utf8('{"content":"café, 東京, 😀"}'));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await w.get(`/v1/memories/${res.body.id}`)).body.content).toBe("café, 東京, 😀");
});
