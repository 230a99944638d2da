/** GET /v1/memories/:id: the full memory object, its defaults, and who gets a 404. */
import { describe, expect, it } from "vitest";
import { MEMORY_DEFAULTS } from "../../fixtures";
import { expectError, newWallet, UUID, uniqueText } from "../../helpers";
import { expectNotFoundUnlessOwnLive, list } from "./fixtures";

describe("GET /v1/memories/:id", () => {
  it("returns the full memory object", async () => {
    const w = newWallet();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const id = await w.store(uniqueText("full"), {
      namespace: "proj",
      metadata: { k: "v", nested: { n: 1 } },
      tags: ["x", "y"],
      importance: 0.8,
      memory_type: "project",
      session_id: "sess",
      agent_id: "agent",
      expires_at: expiresAt,
      pinned: true,
      immutable: true,
    });
    const res = await w.get(`/v1/memories/${id}`);
    expect(res.status).toBe(200);
    const m = res.body;
    for (const key of [
      "id",
      "user_id",
      "namespace",
      "content",
      "embedding_model",
      "metadata",
      "importance",
      "memory_type",
      "session_id",
      "agent_id",
      "created_at",
      "updated_at",
      "accessed_at",
      "access_count",
      "expires_at",
      "pinned",
      "immutable",
    ]) {
      expect(m, key).toHaveProperty(key);
    }
    expect(m).toMatchObject({
      id,
      namespace: "proj",
      metadata: { k: "v", nested: { n: 1 }, tags: ["x", "y"] },
      importance: 0.8,
      memory_type: "project",
      session_id: "sess",
      agent_id: "agent",
      access_count: 0,
      expires_at: expiresAt,
      pinned: true,
      immutable: true,
    });
    expect(m.content.startsWith("full ")).toBe(true);
    expect(m.user_id).toMatch(UUID);
    expect(typeof m.embedding_model).toBe("string");
    expect(m.embedding_model.length).toBeGreaterThan(0);
    expect(m.created_at).toBe(m.updated_at);
    expect(Math.abs(Date.parse(m.created_at) - Date.now())).toBeLessThan(60_000);
    expect(m).not.toHaveProperty("embedding");
    expect(m).not.toHaveProperty("deleted_at");

    // Same object as in the list.
    const listed = (await list(w)).memories[0];
    expect(listed.id).toBe(id);
    expect(listed.user_id).toBe(m.user_id);
  });

  it("applies the documented defaults", async () => {
    const w = newWallet();
    const content = uniqueText("defaults");
    const id = await w.store(content);
    const m = (await w.get(`/v1/memories/${id}`)).body;
    expect(m).toMatchObject({ id, content, ...MEMORY_DEFAULTS, access_count: 0 });
  });

  it("404 for unknown, deleted and another wallet's; 422 for a non-UUID", async () => {
    const { owner, id } = await expectNotFoundUnlessOwnLive((w, memoryId) =>
      w.get(`/v1/memories/${memoryId}`),
    );
    expectError(await owner.get("/v1/memories/not-a-uuid"), 422, "VALIDATION_ERROR");
    expectError(await owner.get("/v1/memories/12345"), 422, "VALIDATION_ERROR");
    // The owner still sees it.
    expect((await owner.get(`/v1/memories/${id}`)).status).toBe(200);
  });
});
