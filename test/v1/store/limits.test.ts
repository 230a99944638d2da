/** POST /v1/store: every limit of the spec's Limits table, just over (422) and at it (201). */
import { describe, expect, it } from "vitest";
import { expectError, issuePaths, newWallet, uniqueText } from "../../helpers";
import { keys, metadataOfBytes, tagList } from "./fixtures";

describe("POST /v1/store limits", () => {
  const rejected: Array<[string, Record<string, unknown>, string]> = [
    ["content of 8,193 characters", { content: "x".repeat(8193) }, "content"],
    ["empty content", { content: "" }, "content"],
    ["whitespace-only content", { content: "   \n\t " }, "content"],
    ["missing content", { content: undefined }, "content"],
    ["non-string content", { content: 42 }, "content"],
    ["metadata over 4 KB", { metadata: metadataOfBytes(4097) }, "metadata"],
    ["metadata of 5,000 bytes", { metadata: { big: "y".repeat(5000) } }, "metadata"],
    ["metadata with 21 keys", { metadata: keys(21) }, "metadata"],
    ["metadata 4 levels deep", { metadata: { a: { b: { c: { d: 1 } } } } }, "metadata"],
    ["metadata 4 levels deep through an array", { metadata: { a: { b: [[1]] } } }, "metadata"],
    ["metadata that is an array", { metadata: ["a"] }, "metadata"],
    ["11 top-level tags", { tags: tagList(11) }, "tags"],
    ["11 metadata.tags", { metadata: { tags: tagList(11) } }, "metadata.tags"],
    [
      "6 + 6 distinct tags from both places",
      { tags: tagList(6, "a"), metadata: { tags: tagList(6, "b") } },
      "tags",
    ],
    ["a 65-character tag", { tags: ["t".repeat(65)] }, "tags.0"],
    [
      "a 65-character metadata tag",
      { metadata: { tags: ["ok", "t".repeat(65)] } },
      "metadata.tags.1",
    ],
    ["an empty tag", { tags: [""] }, "tags.0"],
    ["a non-string tag", { tags: [7] }, "tags.0"],
    ["namespace of 256 characters", { namespace: "n".repeat(256) }, "namespace"],
    ["empty namespace", { namespace: "" }, "namespace"],
    ["session_id of 256 characters", { session_id: "s".repeat(256) }, "session_id"],
    ["agent_id of 256 characters", { agent_id: "a".repeat(256) }, "agent_id"],
    ["importance -0.1", { importance: -0.1 }, "importance"],
    ["importance 1.1", { importance: 1.1 }, "importance"],
    ["importance as a string", { importance: "0.5" }, "importance"],
    ["memory_type bogus", { memory_type: "bogus" }, "memory_type"],
    [
      "expires_at in the past",
      { expires_at: new Date(Date.now() - 60_000).toISOString() },
      "expires_at",
    ],
    ["expires_at not a date", { expires_at: "not a date" }, "expires_at"],
    ["expires_at an impossible date", { expires_at: "2099-13-45T00:00:00Z" }, "expires_at"],
    ["pinned not a boolean", { pinned: "yes" }, "pinned"],
    ["immutable not a boolean", { immutable: 1 }, "immutable"],
  ];

  it.each(rejected)("rejects %s with 422", async (_name, fields, path) => {
    const w = newWallet();
    // `content: undefined` in `fields` drops the key from the JSON body.
    const body = { content: "A valid content string", ...fields };
    const res = await w.post("/v1/store", body);
    expectError(res, 422, "VALIDATION_ERROR");
    expect(issuePaths(res)).toContain(path);
    expect(await w.memoryCount()).toBe(0);
  });

  it("accepts content of exactly 8,192 characters and keeps it whole", async () => {
    const w = newWallet();
    const content = `${"word ".repeat(1638)}ab`;
    expect(content.length).toBe(8192);
    const id = await w.store(content);
    expect((await w.get(`/v1/memories/${id}`)).body.content).toBe(content);
  });

  it("counts content in characters, not bytes", async () => {
    const w = newWallet();
    const content = "é".repeat(8192);
    const id = await w.store(content);
    expect((await w.get(`/v1/memories/${id}`)).body.content).toBe(content);
  });

  it("accepts 10 tags, a 64-character tag, 20 metadata keys, 3 levels and 4,096 bytes", async () => {
    const w = newWallet();
    const tenTags = tagList(10);
    const a = await w.store(uniqueText(), { tags: tenTags });
    expect((await w.get(`/v1/memories/${a}`)).body.tags).toEqual(tenTags);

    const longTag = "t".repeat(64);
    const b = await w.store(uniqueText(), { tags: [longTag] });
    expect((await w.get(`/v1/memories/${b}`)).body.tags).toEqual([longTag]);

    const c = await w.store(uniqueText(), { metadata: keys(20) });
    expect((await w.get(`/v1/memories/${c}`)).body.metadata).toEqual(keys(20));

    const deep = { a: { b: { c: 1 } } };
    const d = await w.store(uniqueText(), { metadata: deep });
    expect((await w.get(`/v1/memories/${d}`)).body.metadata).toEqual(deep);

    const big = metadataOfBytes(4096);
    expect(JSON.stringify(big).length).toBe(4096);
    const e = await w.store(uniqueText(), { metadata: big });
    expect((await w.get(`/v1/memories/${e}`)).body.metadata).toEqual(big);

    // 5 + 5 distinct, plus overlaps: 10 after the merge.
    const f = await w.store(uniqueText(), {
      tags: [...tagList(5, "a"), "shared"],
      metadata: { tags: ["shared", ...tagList(4, "b")] },
    });
    expect((await w.get(`/v1/memories/${f}`)).body.tags).toHaveLength(10);
    expect(await w.memoryCount()).toBe(6);
  });

  it("accepts importance 0 and 1, and 255-character namespace, session_id and agent_id", async () => {
    const w = newWallet();
    const zero = await w.store(uniqueText(), { importance: 0 });
    expect((await w.get(`/v1/memories/${zero}`)).body.importance).toBe(0);
    const one = await w.store(uniqueText(), { importance: 1 });
    expect((await w.get(`/v1/memories/${one}`)).body.importance).toBe(1);

    const long = {
      namespace: "n".repeat(255),
      session_id: "s".repeat(255),
      agent_id: "a".repeat(255),
    };
    const id = await w.store(uniqueText(), long);
    expect((await w.get(`/v1/memories/${id}`)).body).toMatchObject(long);
  });

  it("accepts null session_id, agent_id and expires_at", async () => {
    const w = newWallet();
    const id = await w.store(uniqueText(), { session_id: null, agent_id: null, expires_at: null });
    expect((await w.get(`/v1/memories/${id}`)).body).toMatchObject({
      session_id: null,
      agent_id: null,
      expires_at: null,
    });
  });
});
