/** The field schemas and limits of worker/memories/fields.ts, without HTTP. */
import { describe, expect, it } from "vitest";
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
} from "../../worker/memories/fields";

describe("fields: jsonDepth counts nesting levels of objects and arrays", () => {
  it.each<[value: unknown, depth: number]>([
    [null, 0],
    [undefined, 0],
    [42, 0],
    ["text", 0],
    [{}, 1],
    [[], 1],
    [{ a: 1, b: "x" }, 1],
    [{ a: { b: 1 } }, 2],
    [{ a: { b: { c: 1 } } }, 3],
    [{ a: [1, [2]] }, 3],
    [{ shallow: 1, deep: { x: { y: { z: 1 } } } }, 4],
    [[{ a: null }], 2],
  ])("%j → %i", (value, depth) => {
    expect(jsonDepth(value)).toBe(depth);
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
