/** DELETE /v1/memories/:id/relations/:relationId, from either end of the relation. */
import { describe, expect, it } from "vitest";
import { expectError, type Json, MISSING_ID, newWallet } from "../../../helpers";
import { storeTexts } from "../fixtures";

describe("DELETE /v1/memories/:id/relations/:relationId", () => {
  it("deletes a relation; deleting it again is 404", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeTexts(w, 3);
    const ab = await w.relate(a, b);
    const ac = await w.relate(a, c);
    const res = await w.del(`/v1/memories/${a}/relations/${ab.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: ab.id });
    expect((await w.relationsOf(a)).map((r: Json) => r.id)).toEqual([ac.id]);
    expect(await w.relationsOf(b)).toEqual([]);
    expectError(await w.del(`/v1/memories/${a}/relations/${ab.id}`), 404, "NOT_FOUND");
    // Both memories are untouched.
    expect((await w.get(`/v1/memories/${a}`)).status).toBe(200);
    expect((await w.get(`/v1/memories/${b}`)).status).toBe(200);
    // The same relation can be made again afterwards.
    await w.relate(a, b);
  });

  it("deletes through the target memory's path too", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    const ab = await w.relate(a, b, "supports");
    const res = await w.del(`/v1/memories/${b}/relations/${ab.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: ab.id });
    expect(await w.relationsOf(a)).toEqual([]);
  });

  it("answers 404 for a relation that does not touch the memory in the path", async () => {
    const w = newWallet();
    const [a = "", b = "", c = ""] = await storeTexts(w, 3);
    const ab = await w.relate(a, b);
    expectError(await w.del(`/v1/memories/${c}/relations/${ab.id}`), 404, "NOT_FOUND");
    expect((await w.relationsOf(a)).map((r: Json) => r.id)).toEqual([ab.id]);
    expectError(await w.del(`/v1/memories/${a}/relations/${MISSING_ID}`), 404, "NOT_FOUND");
  });

  it("answers 404 to another wallet and keeps the relation", async () => {
    const w = newWallet();
    const other = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    const ab = await w.relate(a, b);
    const [x = ""] = await storeTexts(other, 1);
    expectError(await other.del(`/v1/memories/${a}/relations/${ab.id}`), 404, "NOT_FOUND");
    // Through one of its own memories, the other wallet still cannot reach the relation.
    expectError(await other.del(`/v1/memories/${x}/relations/${ab.id}`), 404, "NOT_FOUND");
    expect((await w.relationsOf(a)).map((r: Json) => r.id)).toEqual([ab.id]);
  });

  it("answers 422 for a non-UUID memory or relation id", async () => {
    const w = newWallet();
    const [a = "", b = ""] = await storeTexts(w, 2);
    const ab = await w.relate(a, b);
    expectError(await w.del(`/v1/memories/${a}/relations/nope`), 422, "VALIDATION_ERROR");
    expectError(await w.del(`/v1/memories/nope/relations/${ab.id}`), 422, "VALIDATION_ERROR");
    expect(await w.relationsOf(a)).toHaveLength(1);
  });
});
