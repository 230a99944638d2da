/** GET /v1/export as JSON (the default): every live memory, oldest first, with its filters. */
import { describe, expect, it } from "vitest";
import { expireNow } from "../../db";
import { CSV_HEADER } from "../../fixtures";
import { expectError, ids, newWallet, request, sleep } from "../../helpers";
import { csvRecords, exportOf } from "./fixtures";

describe("GET /v1/export (JSON)", () => {
  it("exports every live memory as JSON by default, oldest first", async () => {
    const w = newWallet();
    const a = await w.storeNew("Backups run nightly at two in the morning", {
      namespace: "ops",
      tags: ["infra"],
      metadata: { owner: "sam", level: { nested: true } },
      importance: 0.8,
      memory_type: "decision",
      session_id: "sess-1",
      agent_id: "agent-1",
      pinned: true,
    });
    const b = await w.storeNew("Prefers green tea over coffee in the afternoon", {
      memory_type: "preference",
    });
    const body = await exportOf(w);
    expect(Object.keys(body).sort()).toEqual(["count", "format", "memories"]);
    expect(body.format).toBe("json");
    expect(body.count).toBe(2);
    // Each exported memory is the same object GET /v1/memories/:id returns.
    expect(body.memories).toEqual([await w.getMemory(a), await w.getMemory(b)]);
    const first = body.memories[0];
    expect(first.content).toBe("Backups run nightly at two in the morning");
    expect(first.metadata).toEqual({ owner: "sam", level: { nested: true }, tags: ["infra"] });
    expect(first.pinned).toBe(true);
    expect(first.importance).toBe(0.8);
    expect("deleted_at" in first).toBe(false);

    expect(await exportOf(w, "?format=json")).toEqual(body);
  });

  it("gives a fresh wallet an empty export", async () => {
    const w = newWallet();
    expect(await exportOf(w)).toEqual({ format: "json", memories: [], count: 0 });
    const csv = await exportOf(w, "?format=csv");
    expect(csv).toEqual({ format: "csv", memories: `${CSV_HEADER}\r\n`, count: 0 });
    const md = await exportOf(w, "?format=markdown");
    expect(md.format).toBe("markdown");
    expect(md.count).toBe(0);
    expect(md.memories).toContain("0 memories.");
  });

  it("filters by namespace, memory_type, tags, session_id and agent_id", async () => {
    const w = newWallet();
    const [m1, m2, m3, m4] = await w.storeEach([
      {
        content: "Deploy the billing service every Monday",
        namespace: "work",
        memory_type: "project",
        tags: ["deploy", "billing"],
        session_id: "s1",
        agent_id: "a1",
      },
      {
        content: "Dentist appointment moved to the ninth",
        namespace: "home",
        memory_type: "observation",
        tags: ["health"],
        session_id: "s2",
        agent_id: "a1",
      },
      {
        content: "Rotate the database credentials quarterly",
        namespace: "work",
        memory_type: "decision",
        tags: ["security", "deploy"],
        session_id: "s1",
        agent_id: "a2",
      },
      { content: "Call grandmother on her birthday in June" },
    ]);

    expect(ids(await exportOf(w))).toEqual([m1, m2, m3, m4]);
    const ns = await exportOf(w, "?namespace=work");
    expect(ids(ns)).toEqual([m1, m3]);
    expect(ns.count).toBe(2);
    expect(ids(await exportOf(w, "?namespace=default"))).toEqual([m4]);
    expect(ids(await exportOf(w, "?memory_type=observation"))).toEqual([m2]);
    expect(ids(await exportOf(w, "?tags=deploy"))).toEqual([m1, m3]);
    expect(ids(await exportOf(w, "?tags=health,security"))).toEqual([m2, m3]);
    expect(ids(await exportOf(w, "?session_id=s1"))).toEqual([m1, m3]);
    expect(ids(await exportOf(w, "?agent_id=a1"))).toEqual([m1, m2]);
    expect(ids(await exportOf(w, "?namespace=work&agent_id=a2&tags=deploy"))).toEqual([m3]);
    const none = await exportOf(w, "?namespace=nowhere");
    expect(none).toEqual({ format: "json", memories: [], count: 0 });
    // Filters apply to the other formats too.
    const csv = await exportOf(w, "?format=csv&tags=deploy");
    expect(csv.count).toBe(2);
    expect(csvRecords(csv.memories).map((r) => r.id)).toEqual([m1, m3]);
  });

  it("filters by creation time with before and after", async () => {
    const w = newWallet();
    const m1 = await w.storeNew("First entry: the greenhouse thermometer broke");
    await sleep(30);
    const m2 = await w.storeNew("Second entry: ordered a replacement from the shop");
    await sleep(30);
    const m3 = await w.storeNew("Third entry: installed it next to the tomatoes");
    const t1 = Date.parse((await w.getMemory(m1)).created_at);
    const t2 = Date.parse((await w.getMemory(m2)).created_at);
    const t3 = Date.parse((await w.getMemory(m3)).created_at);
    expect(t2 - t1).toBeGreaterThanOrEqual(2);
    expect(t3 - t2).toBeGreaterThanOrEqual(2);
    // Boundaries strictly between two memories (created_at is shown to the millisecond).
    const between12 = encodeURIComponent(new Date(t1 + 1).toISOString());
    const between23 = encodeURIComponent(new Date(t2 + 1).toISOString());

    expect(ids(await exportOf(w, `?after=${between12}`))).toEqual([m2, m3]);
    expect(ids(await exportOf(w, `?after=${between23}`))).toEqual([m3]);
    expect(ids(await exportOf(w, `?before=${between12}`))).toEqual([m1]);
    expect(ids(await exportOf(w, `?before=${between23}`))).toEqual([m1, m2]);
    expect(ids(await exportOf(w, `?after=${between12}&before=${between23}`))).toEqual([m2]);
    expect(ids(await exportOf(w, "?after=2000-01-01&before=2999-12-31"))).toEqual([m1, m2, m3]);
    expect((await exportOf(w, "?before=2000-01-01")).count).toBe(0);

    // Both bounds are inclusive, also when given a memory's own created_at as returned.
    const exact2 = encodeURIComponent((await w.getMemory(m2)).created_at);
    expect(ids(await exportOf(w, `?before=${exact2}`))).toEqual([m1, m2]);
    expect(ids(await exportOf(w, `?after=${exact2}`))).toEqual([m2, m3]);
    expect(ids(await exportOf(w, `?after=${exact2}&before=${exact2}`))).toEqual([m2]);
  });

  it("includes soft-deleted memories only with include_deleted=true", async () => {
    const w = newWallet();
    const live = await w.storeNew("The spare key hangs behind the garage door");
    const gone = await w.storeNew("The wifi password is written on the fridge");
    const before = Date.now();
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const plain = await exportOf(w);
    expect(ids(plain)).toEqual([live]);
    expect(plain.count).toBe(1);
    expect(await exportOf(w, "?include_deleted=false")).toEqual(plain);

    const all = await exportOf(w, "?include_deleted=true");
    expect(ids(all)).toEqual([live, gone]);
    expect(all.count).toBe(2);
    const [liveRow, goneRow] = all.memories;
    expect(liveRow.deleted_at).toBeNull();
    expect(goneRow.content).toBe("The wifi password is written on the fridge");
    expect(typeof goneRow.deleted_at).toBe("string");
    const deletedAt = Date.parse(goneRow.deleted_at);
    expect(Math.abs(deletedAt - before)).toBeLessThan(60_000);
    // Apart from deleted_at, the live memory is exported as it is read.
    const { deleted_at: _d, ...rest } = liveRow;
    expect(rest).toEqual(await w.getMemory(live));

    const csv = await exportOf(w, "?format=csv&include_deleted=true");
    const records = csvRecords(csv.memories);
    expect(records.map((r) => r.id)).toEqual([live, gone]);
    expect(records[0]?.deleted_at).toBe("");
    expect(records[1]?.deleted_at).toBe(goneRow.deleted_at);

    const md = await exportOf(w, "?format=markdown&include_deleted=true");
    expect(md.count).toBe(2);
    expect(md.memories).toContain("The wifi password is written on the fridge");
    expect(md.memories).toMatch(/### general · importance 0\.5 · deleted/);
    expect((await exportOf(w, "?format=markdown")).memories).not.toContain("wifi password");
  });

  it("never exports expired memories", async () => {
    const w = newWallet();
    const keep = await w.storeNew("Library books are due back on the fifteenth");
    const soon = await w.storeNew("Parking permit for the festival weekend", {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await exportOf(w)).count).toBe(2);
    await expireNow([soon]);
    expect(ids(await exportOf(w))).toEqual([keep]);
    expect(ids(await exportOf(w, "?include_deleted=true"))).toEqual([keep]);
  });

  it("rejects unknown formats and malformed parameters with 422", async () => {
    const w = newWallet();
    await w.storeNew("Snow tyres go on in November");
    for (const qs of [
      "format=xml",
      "format=JSON",
      "include_deleted=maybe",
      "include_deleted=yes",
      "memory_type=gossip",
      "before=last-tuesday",
      "after=2024-13-45",
    ]) {
      expectError(await w.get(`/v1/export?${qs}`), 422, "VALIDATION_ERROR");
    }
  });

  it("never exports another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    const mine = await a.storeNew("Secret family recipe for plum dumplings", { namespace: "x" });
    const deleted = await a.storeNew("Old safe combination was 12-34-56", { namespace: "x" });
    expect((await a.del(`/v1/memories/${deleted}`)).status).toBe(200);
    const theirs = await b.storeNew("Bicycle chain needs oil every month", { namespace: "x" });

    for (const qs of ["", "?include_deleted=true", "?namespace=x&include_deleted=true"]) {
      expect(ids(await exportOf(b, qs))).toEqual([theirs]);
    }
    for (const format of ["csv", "markdown"]) {
      const out = await exportOf(b, `?format=${format}&include_deleted=true`);
      expect(out.count).toBe(1);
      expect(out.memories).not.toContain(mine);
      expect(out.memories).not.toContain("plum dumplings");
      expect(out.memories).not.toContain(deleted);
      expect(out.memories).toContain(theirs);
    }
    expect(ids(await exportOf(a, "?include_deleted=true"))).toEqual([mine, deleted]);
  });

  it("requires authentication", async () => {
    expectError(await request("GET", "/v1/export"), 401, "UNAUTHORIZED");
  });
});
