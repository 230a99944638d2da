/** GET /v1/namespaces: each namespace of the wallet with its count and newest memory time. */
import { describe, expect, it } from "vitest";
import { expectError, type Json, newWallet, request, sleep } from "../helpers";
import { createdAt, onlyNamespace } from "./fixtures";

describe("GET /v1/namespaces", () => {
  it("lists each namespace with its count and newest memory time, sorted by name", async () => {
    const w = newWallet();
    await w.storeNew("Quarterly revenue grew by eight percent", { namespace: "work" });
    const home1 = await w.storeNew("The boiler needs servicing before winter", {
      namespace: "home",
    });
    const def = await w.storeNew("Favourite colour is teal");
    await sleep(5);
    const work2 = await w.storeNew("Hiring plan approved for two engineers", {
      namespace: "work",
    });

    const body = await w.getOk("/v1/namespaces");
    expect(body).toEqual({
      namespaces: [
        { name: "default", count: 1, last_memory_at: await createdAt(w, def) },
        { name: "home", count: 1, last_memory_at: await createdAt(w, home1) },
        { name: "work", count: 2, last_memory_at: await createdAt(w, work2) },
      ],
      total: 3,
    });
  });

  it("filters by agent_id", async () => {
    const w = newWallet();
    const a1 = await w.storeNew("Scraped the pricing page of the competitor", {
      namespace: "research",
      agent_id: "crawler",
    });
    await w.storeNew("Summarised the meeting transcript for Alex", {
      namespace: "research",
      agent_id: "scribe",
    });
    const a3 = await w.storeNew("Fetched the weather forecast for Lisbon", {
      namespace: "travel",
      agent_id: "crawler",
    });
    await w.storeNew("No agent wrote this memory about violins");

    expect(await w.getOk("/v1/namespaces?agent_id=crawler")).toEqual({
      namespaces: [
        { name: "research", count: 1, last_memory_at: await createdAt(w, a1) },
        { name: "travel", count: 1, last_memory_at: await createdAt(w, a3) },
      ],
      total: 2,
    });
    const scribe = await w.getOk("/v1/namespaces?agent_id=scribe");
    expect(scribe.namespaces.map((n: Json) => [n.name, n.count])).toEqual([["research", 1]]);
    expect(scribe.total).toBe(1);
    expect(await w.getOk("/v1/namespaces?agent_id=nobody")).toEqual({
      namespaces: [],
      total: 0,
    });
    const all = await w.getOk("/v1/namespaces");
    expect(all.namespaces.map((n: Json) => [n.name, n.count])).toEqual([
      ["default", 1],
      ["research", 2],
      ["travel", 1],
    ]);
  });

  it("does not count deleted memories", async () => {
    const w = newWallet();
    const only = await w.storeNew("Temporary note about the parking garage", {
      namespace: "scratch",
    });
    const keep = await w.storeNew("Grocery list: eggs, flour, butter", { namespace: "lists" });
    const drop = await w.storeNew("Packing list: passport, charger, socks", {
      namespace: "lists",
    });
    expect((await w.getOk("/v1/namespaces")).total).toBe(2);
    expect((await w.del(`/v1/memories/${only}`)).status).toBe(200);
    expect((await w.del(`/v1/memories/${drop}`)).status).toBe(200);
    expect(await w.getOk("/v1/namespaces")).toEqual(await onlyNamespace(w, "lists", keep));
  });

  it("is empty for a fresh wallet and never shows another wallet's namespaces", async () => {
    const a = newWallet();
    const b = newWallet();
    expect(await a.getOk("/v1/namespaces")).toEqual({ namespaces: [], total: 0 });
    await a.storeNew("Private diary entry about the hiking trip", { namespace: "diary" });
    const theirs = await b.storeNew("Shared shopping list for the party", {
      namespace: "party",
    });
    expect(await b.getOk("/v1/namespaces")).toEqual(await onlyNamespace(b, "party", theirs));
    expect((await a.getOk("/v1/namespaces")).namespaces.map((n: Json) => n.name)).toEqual([
      "diary",
    ]);
  });

  it("rejects an over-long agent_id and requires authentication", async () => {
    const w = newWallet();
    expectError(await w.get(`/v1/namespaces?agent_id=${"x".repeat(256)}`), 422, "VALIDATION_ERROR");
    expectError(await request("GET", "/v1/namespaces"), 401, "UNAUTHORIZED");
  });
});
