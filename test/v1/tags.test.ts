/** GET /v1/tags: the tags of live memories with their counts, most used first. */
import { describe, expect, it } from "vitest";
import { newWallet, uniqueText } from "../helpers";

describe("GET /v1/tags", () => {
  it("tallies tags of live memories, most used first", async () => {
    const w = newWallet();
    await w.store(uniqueText("a"), { tags: ["common", "beta"], namespace: "one" });
    await w.store(uniqueText("b"), { metadata: { tags: ["common", "alpha"] }, namespace: "one" });
    await w.store(uniqueText("c"), { tags: ["common"], namespace: "two" });
    await w.store(uniqueText("d"));
    const gone = await w.store(uniqueText("e"), { tags: ["deleted-only", "common"] });
    expect((await w.del(`/v1/memories/${gone}`)).status).toBe(200);

    const res = await w.get("/v1/tags");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tags: [
        { tag: "common", count: 3 },
        { tag: "alpha", count: 1 },
        { tag: "beta", count: 1 },
      ],
    });

    const one = await w.get("/v1/tags?namespace=one");
    expect(one.body).toEqual({
      tags: [
        { tag: "common", count: 2 },
        { tag: "alpha", count: 1 },
        { tag: "beta", count: 1 },
      ],
    });
    expect((await w.get("/v1/tags?namespace=none")).body).toEqual({ tags: [] });
  });
});
