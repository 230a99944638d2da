import { describe, expect, it } from "vitest";
import { expectError, newWallet } from "../helpers";

const NOTES = {
  filename: "2024-05-06-notes.md",
  content: [
    "# Team notes",
    "Kickoff for the billing rewrite.",
    "## Database decision",
    "We decided to move billing to Postgres.",
    "## Editor",
    "Ana prefers vim with a dark theme.",
    "## x",
    "tiny",
  ].join("\n"),
};

async function listAll(w: ReturnType<typeof newWallet>, query = "") {
  const res = await w.get(`/v1/memories?limit=100${query}`);
  expect(res.status).toBe(200);
  return res.body.memories as Array<Record<string, unknown>>;
}

describe("POST /v1/migrate", () => {
  it("turns each ## section into a memory with rule-based importance, type and tags", async () => {
    const w = newWallet();
    const res = await w.post("/v1/migrate", { files: [NOTES] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      files_processed: 1,
      memories_created: 3,
      memories_deduplicated: 0,
      duplicates_skipped: 0,
      // Client extras: each section's memory in file order, and the embedding tokens.
      memory_ids: [expect.any(String), expect.any(String), expect.any(String)],
      tokens_used: expect.any(Number),
      dry_run: false,
    });
    expect(res.body.tokens_used).toBeGreaterThan(0);
    const inOrder = await Promise.all(
      (res.body.memory_ids as string[]).map(async (id) => (await w.get(`/v1/memories/${id}`)).body),
    );
    expect(inOrder.map((m) => m.content)).toEqual([
      "# Team notes\nKickoff for the billing rewrite.",
      "## Database decision\nWe decided to move billing to Postgres.",
      "## Editor\nAna prefers vim with a dark theme.",
    ]);
    const memories = await listAll(w, "&sort=importance&order=desc");
    expect(memories.map((m) => m.content)).toEqual([
      "## Database decision\nWe decided to move billing to Postgres.",
      "## Editor\nAna prefers vim with a dark theme.",
      "# Team notes\nKickoff for the billing rewrite.",
    ]);
    expect(memories.map((m) => [m.memory_type, m.importance])).toEqual([
      ["decision", 0.9],
      ["preference", 0.8],
      ["general", 0.6],
    ]);
    expect(memories[0]?.tags).toEqual([
      "migrated",
      "source:markdown",
      "date:2024-05-06",
      "database",
      "decision",
    ]);
    expect(memories[0]?.embedding_model).toBe("local-lexical-v1");
  });

  it("creates nothing when the same files are imported again (SHA-256 of the content)", async () => {
    const w = newWallet();
    const first = await w.post("/v1/migrate", { files: [NOTES] });
    const again = await w.post("/v1/migrate", {
      files: [NOTES, { ...NOTES, filename: "copy.md" }],
    });
    expect(again.status).toBe(201);
    expect(again.body.memories_created).toBe(0);
    expect(again.body.memories_deduplicated).toBe(6);
    expect(again.body.files_processed).toBe(2);
    expect(await listAll(w)).toHaveLength(3);
    // The sections are reported by the memories that already hold them; nothing was embedded.
    expect(again.body.memory_ids).toEqual(first.body.memory_ids);
    expect(again.body.tokens_used).toBe(0);
  });

  it("dry_run: true counts what would be imported and stores nothing (200)", async () => {
    // The public MCP server's memoclaw_migrate sends dry_run for its preview; the service
    // used to ignore it and import the files.
    const w = newWallet();
    const stored = await w.post("/v1/migrate", {
      files: [{ ...NOTES, content: NOTES.content.split("## Editor")[0] }],
    });
    expect(stored.status).toBe(201);
    expect(stored.body.memories_created).toBe(2);
    const preview = await w.post("/v1/migrate", { files: [NOTES], dry_run: true });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toEqual({
      files_processed: 1,
      // the Editor section is new; the other two are stored already
      memories_created: 1,
      memories_deduplicated: 2,
      duplicates_skipped: 2,
      memory_ids: stored.body.memory_ids,
      tokens_used: 0,
      dry_run: true,
    });
    expect(await listAll(w)).toHaveLength(2);
    // The same request without dry_run imports what the preview announced.
    const real = await w.post("/v1/migrate", { files: [NOTES], dry_run: false });
    expect(real.status).toBe(201);
    expect(real.body).toMatchObject({
      memories_created: 1,
      memories_deduplicated: 2,
      dry_run: false,
    });
    expect(await listAll(w)).toHaveLength(3);
  });

  it("deduplicates identical sections within one request", async () => {
    const w = newWallet();
    const section = "## Same\nThe same body in two files.";
    const res = await w.post("/v1/migrate", {
      files: [
        { filename: "a.md", content: section },
        { filename: "b.md", content: section },
      ],
    });
    expect(res.body).toMatchObject({
      memories_created: 1,
      memories_deduplicated: 1,
      files_processed: 2,
    });
    // Both files' section is the one memory.
    expect(res.body.memory_ids).toHaveLength(1);
    expect((await w.get(`/v1/memories/${res.body.memory_ids[0]}`)).body.content).toBe(section);
  });

  it("reports a bad file in errors and still imports the others", async () => {
    const w = newWallet();
    const res = await w.post("/v1/migrate", {
      files: [
        NOTES,
        { filename: "empty.md", content: "short" },
        { filename: "nocontent.md" },
        { content: "no name here, long enough" },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.files_processed).toBe(1);
    expect(res.body.memories_created).toBe(3);
    expect(res.body.errors).toEqual([
      { filename: "empty.md", error: "no section of 10 characters or more to import" },
      { filename: "nocontent.md", error: expect.stringContaining("content") },
      { filename: "files[3]", error: expect.stringContaining("filename") },
    ]);
  });

  it("applies namespace, session_id and agent_id", async () => {
    const w = newWallet();
    await w.post("/v1/migrate", {
      files: [NOTES],
      namespace: "imported",
      session_id: "s1",
      agent_id: "a1",
    });
    const memories = await listAll(w, "&namespace=imported&session_id=s1&agent_id=a1");
    expect(memories).toHaveLength(3);
    expect(await listAll(w, "&namespace=default")).toHaveLength(0);
  });

  it("rejects a missing, empty or oversized files array with 422", async () => {
    const w = newWallet();
    expectError(await w.post("/v1/migrate", {}), 422, "VALIDATION_ERROR");
    expectError(await w.post("/v1/migrate", { files: [] }), 422, "VALIDATION_ERROR");
    const files = Array.from({ length: 51 }, (_, i) => ({
      filename: `${i}.md`,
      content: `## N${i}\nbody ${i} here`,
    }));
    expectError(await w.post("/v1/migrate", { files }), 422, "VALIDATION_ERROR");
    expect(await listAll(w)).toHaveLength(0);
  });

  it("accepts 50 files", async () => {
    const w = newWallet();
    const files = Array.from({ length: 50 }, (_, i) => ({
      filename: `${i}.md`,
      content: `## Note ${i}\nbody number ${i} here`,
    }));
    const res = await w.post("/v1/migrate", { files });
    expect(res.body).toMatchObject({ files_processed: 50, memories_created: 50 });
  });

  it("keeps wallets apart: another wallet's import is not a duplicate of mine", async () => {
    const a = newWallet();
    const b = newWallet();
    const mine = await a.post("/v1/migrate", { files: [NOTES] });
    const res = await b.post("/v1/migrate", { files: [NOTES] });
    expect(res.body.memories_created).toBe(3);
    expect(await listAll(a)).toHaveLength(3);
    // b's memory_ids are b's own new memories, never a's.
    expect(res.body.memory_ids).toHaveLength(3);
    for (const id of res.body.memory_ids) {
      expect(mine.body.memory_ids).not.toContain(id);
      expect((await b.get(`/v1/memories/${id}`)).status).toBe(200);
      expectError(await a.get(`/v1/memories/${id}`), 404, "NOT_FOUND");
    }
  });

  it("makes the imported sections searchable", async () => {
    const w = newWallet();
    await w.post("/v1/migrate", { files: [NOTES] });
    const res = await w.post("/v1/search", { query: "billing Postgres" });
    expect(res.body.total).toBe(1);
    expect(res.body.memories[0].content).toContain("decided to move billing");
  });
});
