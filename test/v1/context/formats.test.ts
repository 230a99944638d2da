/**
 * POST /v1/context: the text and structured blocks, their order with and without a query,
 * and include_metadata.
 */
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../worker/lib/tokens";
import { type Json, newWallet } from "../../helpers";
import { bodyLines, context, HEADER, lineOrder, seed } from "./fixtures";

describe("POST /v1/context: text format", () => {
  it("without a query: a header and one line per memory, pinned first, then importance", async () => {
    const w = newWallet();
    const { ids, contents } = await seed(w, [
      {
        content: "Low importance but pinned: the office door code is 4512",
        importance: 0.2,
        pinned: true,
      },
      {
        content: "Important: the release freeze starts on December 15",
        importance: 0.9,
        memory_type: "decision",
        tags: ["release", "calendar"],
        namespace: "office",
      },
      { content: "Medium: the coffee machine is descaled on Fridays", importance: 0.5 },
      {
        content: "Important and newer: backups are verified every Monday",
        importance: 0.9,
        memory_type: "project",
      },
      {
        content: "Trivial: the plant in reception is a ficus",
        importance: 0.1,
        memory_type: "observation",
      },
    ]);
    const [pinned, releaseId = "", coffee, backups, ficus] = ids;

    const body = await context(w);
    expect(typeof body.context).toBe("string");
    expect(body.memories_used).toBe(5);
    expect(body.tokens).toBeGreaterThan(0);
    const lines = bodyLines(body.context, 5);
    // Pinned first; then importance descending; equal importance newest first.
    expect(lineOrder(lines, contents)).toEqual([0, 3, 1, 2, 4]);
    const release = lines[2] as string;
    expect(release).toContain("decision");
    expect(release).toContain("0.9");
    expect(release).toContain("release");
    expect(release).toContain("calendar");
    expect(lines[4]).toContain("observation");
    expect(lines[4]).toContain("0.1");
    expect(lines[4]).not.toContain("tags");

    // `memories` lists them in the block's order, with their stored values.
    expect(body.memories.map((m: Json) => m.id)).toEqual([
      pinned,
      backups,
      releaseId,
      coffee,
      ficus,
    ]);
    const stored = await w.getMemory(releaseId);
    expect(body.memories[2]).toEqual({
      id: releaseId,
      content: contents[1],
      importance: 0.9,
      memory_type: "decision",
      namespace: "office",
      tags: ["release", "calendar"],
      pinned: false,
      created_at: stored.created_at,
    });
    expect(body.memories[0]).toMatchObject({ id: pinned, pinned: true, namespace: "default" });
  });

  it("with a query: memories in recall order", async () => {
    const w = newWallet();
    const { ids, contents } = await seed(w, [
      {
        content: "Saffron risotto needs arborio rice, saffron threads and parmesan",
        importance: 0.1,
      },
      {
        content: "Saffron risotto with parmesan tastes better with homemade stock",
        importance: 0.2,
      },
      { content: "Risotto rice should be toasted before adding wine", importance: 0.3 },
      { content: "The parmesan wheel in the pantry is almost finished", importance: 0.4 },
      { content: "Pinned: the car needs an oil change in April", importance: 1, pinned: true },
    ]);
    const query = "saffron risotto arborio rice parmesan";
    const recalled = await w.post("/v1/recall", { query, limit: 10 });
    expect(recalled.status).toBe(200);
    const recallOrder = recalled.body.memories.map((m: Json) => ids.indexOf(m.id));
    expect(recallOrder).toEqual([0, 1, 2, 3, 4]);

    const body = await context(w, { query });
    expect(body.memories_used).toBe(5);
    expect(lineOrder(bodyLines(body.context, 5), contents)).toEqual(recallOrder);
    expect(body.memories.map((m: Json) => m.id)).toEqual(
      recalled.body.memories.map((m: Json) => m.id),
    );

    const withoutQuery = await context(w);
    expect(lineOrder(bodyLines(withoutQuery.context, 5), contents)).toEqual([4, 3, 2, 1, 0]);

    const blank = await context(w, { query: "   " });
    expect(lineOrder(bodyLines(blank.context, 5), contents)).toEqual([4, 3, 2, 1, 0]);
  });

  it("include_metadata adds each memory's metadata", async () => {
    const w = newWallet();
    await w.storeNew("The staging cluster runs in Frankfurt", {
      metadata: { source: "wiki", owner: "ops" },
      tags: ["infra"],
    });
    const plain = await context(w);
    expect(plain.context).not.toContain("wiki");
    expect(plain.context).not.toContain("owner");
    const rich = await context(w, { include_metadata: true });
    expect(rich.context.startsWith(`${HEADER}\n`)).toBe(true);
    expect(rich.context).toContain("The staging cluster runs in Frankfurt");
    expect(rich.context).toContain('"source":"wiki"');
    expect(rich.context).toContain('"owner":"ops"');
    expect(rich.memories_used).toBe(1);
    expect(rich.tokens).toBeGreaterThan(plain.tokens);
  });
});

describe("POST /v1/context: structured format", () => {
  it("returns {memories: [{content, importance, memory_type, tags, source}]}", async () => {
    const w = newWallet();
    const { ids } = await seed(w, [
      {
        content: "Quarterly OKRs are reviewed by the leadership team",
        importance: 0.8,
        memory_type: "decision",
        tags: ["okr", "planning"],
      },
      {
        content: "The support rota is posted in the team channel",
        importance: 0.3,
        metadata: { source: "slack", channel: "#support" },
      },
    ]);
    const body = await context(w, { format: "structured" });
    expect(body.memories_used).toBe(2);
    // The structured block too is answered with the memories used, ids included.
    expect(body.memories.map((m: Json) => m.id)).toEqual(ids);
    expect(body.context).toEqual({
      memories: [
        {
          content: "Quarterly OKRs are reviewed by the leadership team",
          importance: 0.8,
          memory_type: "decision",
          tags: ["okr", "planning"],
          source: `memory:${ids[0]}`,
        },
        {
          content: "The support rota is posted in the team channel",
          importance: 0.3,
          memory_type: "general",
          tags: [],
          source: "slack",
        },
      ],
    });
    expect(body.tokens).toBe(countTokens(JSON.stringify(body.context)));

    const withMeta = await context(w, { format: "structured", include_metadata: true });
    expect(withMeta.context.memories[0].metadata).toEqual({ tags: ["okr", "planning"] });
    expect(withMeta.context.memories[1].metadata).toEqual({
      source: "slack",
      channel: "#support",
    });
    expect(withMeta.context.memories[1].source).toBe("slack");
  });

  it("with a query the structured order is the recall order", async () => {
    const w = newWallet();
    await w.storeNew("Zeppelin museum opens at nine", { importance: 0.1 });
    await w.storeNew("The harbour ferry leaves every hour", { importance: 0.9 });
    const body = await context(w, { query: "zeppelin museum", format: "structured" });
    expect(body.context.memories.map((m: Json) => m.content)).toEqual([
      "Zeppelin museum opens at nine",
      "The harbour ferry leaves every hour",
    ]);
  });
});
