/** GET /v1/memories/search?q=...: the clients' alias of POST /v1/search. */
import { beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_KEYS } from "../../fixtures";
import { expectError, ids, type Json, newWallet, sleep, sorted } from "../../helpers";
import { search, searchGet, seedTelescopes } from "../search/fixtures";

describe("GET /v1/memories/search (client alias)", () => {
  it("returns the same body as POST /v1/search", async () => {
    const w = newWallet();
    const { m1, m2, m3 } = await seedTelescopes(w);
    const viaGet = await searchGet(w, "q=telescope");
    const viaPost = await search(w, { query: "telescope" });
    expect(viaGet).toEqual(viaPost);
    expect(sorted(ids(viaGet))).toEqual(sorted([m1, m2, m3]));
    expect(viaGet.total).toBe(3);
    expect(viaGet.query).toBe("telescope");
    const first = viaGet.memories.find((m: Json) => m.id === m1);
    expect(Object.keys(first).sort()).toEqual(
      [
        ...SUMMARY_KEYS,
        "user_id",
        "embedding_model",
        "updated_at",
        "accessed_at",
        "access_count",
        "metadata",
        "pinned",
        "immutable",
        "created_by",
        "occurred_at",
        "supersedes",
        "superseded_by",
        // set on this memory (left out when null)
        "session_id",
        "agent_id",
      ].sort(),
    );
    expect(first.tags).toEqual(["hobby", "sky"]);
    expect(first.namespace).toBe("astro");
    expect(first.memory_type).toBe("project");

    const limited = await searchGet(w, "q=telescope&limit=2");
    expect(limited).toEqual(await search(w, { query: "telescope", limit: 2 }));
    expect(limited.memories).toHaveLength(2);
    expect(limited.total).toBe(3);
  });

  it("applies namespace, tags (csv), memory_type, session_id and agent_id", async () => {
    const w = newWallet();
    const { m1, m2, m3 } = await seedTelescopes(w);
    const get = async (qs: string) => ids(await searchGet(w, `q=telescope&${qs}`));
    expect(sorted(await get("namespace=astro"))).toEqual(sorted([m1, m3]));
    expect(sorted(await get("tags=maintenance,club"))).toEqual(sorted([m2, m3]));
    expect(sorted(await get("tags=sky"))).toEqual(sorted([m1, m3]));
    expect(await get("memory_type=observation")).toEqual([m2]);
    expect(sorted(await get("session_id=s1"))).toEqual(sorted([m1, m3]));
    expect(sorted(await get("agent_id=ag2"))).toEqual(sorted([m2, m3]));
    expect(await get("namespace=astro&agent_id=ag1")).toEqual([m1]);
    expect(await get("session_id=nope")).toEqual([]);
  });

  it("applies after (created at or after the given time)", async () => {
    const w = newWallet();
    const early = await w.storeNew("Kayak rental opens at nine on weekends");
    await sleep(50);
    const late = await w.storeNew("Kayak paddles are stored in the blue shed");
    const createdEarly = Date.parse((await w.get(`/v1/memories/${early}`)).body.created_at);
    const createdLate = Date.parse((await w.get(`/v1/memories/${late}`)).body.created_at);
    expect(createdLate - createdEarly).toBeGreaterThanOrEqual(2);
    // A boundary strictly between the two (created_at is shown to the millisecond).
    const between = encodeURIComponent(new Date(createdEarly + 1).toISOString());

    expect(ids(await searchGet(w, `q=kayak&after=${between}`))).toEqual([late]);
    expect(ids(await search(w, { query: "kayak", after: decodeURIComponent(between) }))).toEqual([
      late,
    ]);
    expect(sorted(ids(await searchGet(w, "q=kayak&after=2000-01-01")))).toEqual(
      sorted([early, late]),
    );
    const future = new Date(createdLate + 86_400_000).toISOString();
    const none = await searchGet(w, `q=kayak&after=${encodeURIComponent(future)}`);
    expect(none.memories).toEqual([]);
    expect(none.total).toBe(0);
  });

  it("accepts `query` as well as `q`", async () => {
    const w = newWallet();
    const id = await w.storeNew("Rhubarb crumble needs plenty of sugar");
    const body = await searchGet(w, "query=rhubarb");
    expect(ids(body)).toEqual([id]);
    expect(body.query).toBe("rhubarb");
  });
});

describe("GET /v1/memories/search: parameters", () => {
  const w = newWallet();
  beforeAll(() => w.storeNew("Hedgehogs hibernate under piles of leaves"));

  it.each([
    "",
    "q=",
    "q=%20%20",
    `q=${"h".repeat(1001)}`,
    "q=hedgehog&limit=0",
    "q=hedgehog&limit=101",
    "q=hedgehog&limit=ten",
    "q=hedgehog&memory_type=gossip",
    "q=hedgehog&after=yesterday",
  ])("rejects a missing, empty or too long q and bad parameters with 422: %j", async (qs) => {
    expectError(await w.get(`/v1/memories/search?${qs}`), 422, "VALIDATION_ERROR");
  });

  it("accepts a limit of 100", async () => {
    expect((await searchGet(w, "q=hedgehog&limit=100")).total).toBe(1);
  });
});
