/** GET /v1/memories/count: the number of live memories, with the list filters applied. */
import { describe, expect, it } from "vitest";
import { expectError, newWallet, uniqueText } from "../../helpers";

describe("GET /v1/memories/count", () => {
  it("returns {count} with the list filters applied", async () => {
    const w = newWallet();
    await w.store(uniqueText("a"), { namespace: "n1", tags: ["t1"], memory_type: "decision" });
    await w.store(uniqueText("b"), { namespace: "n1", pinned: true });
    await w.store(uniqueText("c"), { namespace: "n2", tags: ["t1", "t2"] });
    const gone = await w.store(uniqueText("d"), { namespace: "n1", tags: ["t1"] });
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const count = async (q = "") => {
      const res = await w.get(`/v1/memories/count${q ? `?${q}` : ""}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    expect(await count()).toEqual({ count: 3 });
    expect(await count("namespace=n1")).toEqual({ count: 2 });
    expect(await count("tags=t1")).toEqual({ count: 2 });
    expect(await count("tags=t2,missing")).toEqual({ count: 1 });
    expect(await count("pinned=true")).toEqual({ count: 1 });
    expect(await count("memory_type=decision")).toEqual({ count: 1 });
    expect(await count("namespace=n2&tags=t1")).toEqual({ count: 1 });
    expect(await count("namespace=zzz")).toEqual({ count: 0 });
    expectError(await w.get("/v1/memories/count?pinned=maybe"), 422, "VALIDATION_ERROR");
  });
});
