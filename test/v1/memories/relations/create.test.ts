/** POST /v1/memories/:id/relations: creating a relation, and every way it can be refused. */
import { describe, expect, it } from "vitest";
import {
  expectError,
  ISO,
  type Json,
  MISSING_ID,
  newWallet,
  request,
  UUID,
} from "../../../helpers";
import { spec } from "../../../spec/facts";
import { graph, storeTexts, text } from "../fixtures";

describe("POST /v1/memories/:id/relations", () => {
  it("creates a relation and returns it with 201", async () => {
    const w = newWallet();
    const [a, b] = await storeTexts(w, 2);
    const res = await w.post(`/v1/memories/${a}/relations`, {
      target_id: b,
      relation_type: "supports",
      metadata: { reason: "evidence", weight: 2, nested: { ok: true } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The spec's relation fields, and `created: true` for the public TypeScript SDK (its
    // CreateRelationResponse is {id, created}).
    expect(Object.keys(res.body).sort()).toEqual(
      ["created", "created_at", "id", "metadata", "relation_type", "source_id", "target_id"].sort(),
    );
    expect(res.body.created).toBe(true);
    expect(res.body.id).toMatch(UUID);
    expect(res.body.source_id).toBe(a);
    expect(res.body.target_id).toBe(b);
    expect(res.body.relation_type).toBe("supports");
    expect(res.body.metadata).toEqual({ reason: "evidence", weight: 2, nested: { ok: true } });
    expect(res.body.created_at).toMatch(ISO);
    expect(Math.abs(Date.parse(res.body.created_at) - Date.now())).toBeLessThan(120_000);
  });

  it("defaults metadata to an empty object", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    const rel = await w.relate(a, b);
    expect(rel.metadata).toEqual({});
  });

  it("accepts each of the five relation types between the same pair", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    const ids = new Set<string>();
    for (const type of spec.relationTypes) {
      const rel = await w.relate(a, b, type);
      expect(rel.relation_type).toBe(type);
      ids.add(rel.id);
    }
    expect(ids.size).toBe(5);
    const listed = await w.relationsOf(a);
    expect(listed.map((r: Json) => r.relation_type).sort()).toEqual([...spec.relationTypes].sort());
  });

  // Each body, built from the source `a` and another memory `b`, is refused and relates nothing.
  it.each<[string, (a: string, b: string) => unknown]>([
    ["an unknown relation type", (_a, b) => ({ target_id: b, relation_type: "loves" })],
    ["a missing relation type", (_a, b) => ({ target_id: b })],
    ["a missing target", () => ({ relation_type: "supports" })],
    ["a non-UUID target", () => ({ target_id: "not-a-uuid", relation_type: "supports" })],
    ["a number as target", () => ({ target_id: 12345, relation_type: "supports" })],
    [
      "metadata that is not an object",
      (_a, b) => ({ target_id: b, relation_type: "supports", metadata: "a string" }),
    ],
    [
      "metadata nested too deep",
      (_a, b) => ({
        target_id: b,
        relation_type: "supports",
        metadata: { a: { b: { c: { d: 1 } } } },
      }),
    ],
    ["an empty body", () => ({})],
    ["a request without a body", () => undefined],
    ["a relation from a memory to itself", (a) => ({ target_id: a, relation_type: "related_to" })],
  ])("rejects %s with 422", async (_case, body) => {
    const w = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    expectError(await w.post(`/v1/memories/${a}/relations`, body(a, b)), 422, "VALIDATION_ERROR");
    expect(await w.relationsOf(a)).toEqual([]);
  });

  it("rejects a non-UUID source id in the path with 422", async () => {
    const w = newWallet();
    const [b] = await storeTexts(w, 1);
    const res = await w.post("/v1/memories/not-a-uuid/relations", {
      target_id: b,
      relation_type: "supports",
    });
    expectError(res, 422, "VALIDATION_ERROR");
  });

  it("rejects a duplicate (same source, target and type) with 409, not the reverse", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    const first = await w.relate(a, b, "contradicts");
    const again = await w.post(`/v1/memories/${a}/relations`, {
      target_id: b,
      relation_type: "contradicts",
      metadata: { other: true },
    });
    expectError(again, 409, "CONFLICT");
    // Relations are directed: b → a is another relation.
    const reverse = await w.relate(b, a, "contradicts");
    expect(reverse.id).not.toBe(first.id);
    const listed = await w.relationsOf(a);
    expect(listed.map((r: Json) => r.id).sort()).toEqual([first.id, reverse.id].sort());
  });

  it("answers 404 for a target or source that is unknown, deleted or another wallet's", async () => {
    const w = newWallet();
    const other = newWallet();
    const [a = "", b = "", c = ""] = await storeTexts(w, 3);
    const foreign = await other.storeNew(text(5));
    const post = (source: string, target: string) =>
      w.post(`/v1/memories/${source}/relations`, { target_id: target, relation_type: "supports" });

    expectError(await post(a, MISSING_ID), 404, "NOT_FOUND");
    expectError(await post(MISSING_ID, a), 404, "NOT_FOUND");
    // Target of another wallet.
    expectError(await post(a, foreign), 404, "NOT_FOUND");
    // Source of another wallet (the caller owns the target).
    expectError(await post(foreign, a), 404, "NOT_FOUND");
    // The other wallet cannot relate its own memory to ours either.
    const fromOther = await other.post(`/v1/memories/${foreign}/relations`, {
      target_id: a,
      relation_type: "supports",
    });
    expectError(fromOther, 404, "NOT_FOUND");

    expect((await w.del(`/v1/memories/${b}`)).status).toBe(200);
    expectError(await post(a, b), 404, "NOT_FOUND"); // deleted target
    expectError(await post(b, c), 404, "NOT_FOUND"); // deleted source

    expect(await w.relationsOf(a)).toEqual([]);
    expect(await w.relationsOf(c)).toEqual([]);
    expect(await other.relationsOf(foreign)).toEqual([]);
  });

  it("accepts upper-case UUIDs in the path and body as the same memories", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeTexts(w, 3);
    const A = a.toUpperCase();
    const rel = await w.relate(A, b.toUpperCase(), "supports");
    expect(rel.source_id).toBe(a);
    expect(rel.target_id).toBe(b);
    await w.relate(c, A, "related_to");
    // Self-relation is caught whatever the case.
    expectError(
      await w.post(`/v1/memories/${a}/relations`, { target_id: A, relation_type: "supports" }),
      422,
      "VALIDATION_ERROR",
    );
    const listed = await w.relationsOf(A);
    expect(listed.map((r: Json) => [r.memory.id, r.direction]).sort()).toEqual(
      [
        [b, "outgoing"],
        [c, "incoming"],
      ].sort(),
    );
    const g = await graph(w, A);
    expect(g.root.id).toBe(a);
    expect(g.nodes.map((n: Json) => n.id).sort()).toEqual([b, c].sort());
    const del = await w.del(`/v1/memories/${A}/relations/${String(rel.id).toUpperCase()}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, id: rel.id });
  });

  it("requires authentication", async () => {
    const res = await request("POST", `/v1/memories/${MISSING_ID}/relations`, {
      body: { target_id: MISSING_ID, relation_type: "supports" },
    });
    expectError(res, 401, "UNAUTHORIZED");
  });
});
