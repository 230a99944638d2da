/**
 * POST /v1/context: filters, empty wallets, wallet isolation and deleted memories, and the
 * accesses a query counts.
 */
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../worker/lib/tokens";
import { type Json, newWallet, sleep } from "../../helpers";
import { bodyLines, context, lineOrder, seed } from "./fixtures";

describe("POST /v1/context: scope and isolation", () => {
  it("filters by namespace, session_id and agent_id, with or without a query", async () => {
    const w = newWallet();
    // Each memory has one scope field, and filtering by it finds that memory alone.
    const scoped: Array<[content: string, scope: Record<string, string>]> = [
      ["Namespace work: sprint demo on Friday", { namespace: "work" }],
      ["Namespace home: water the ferns", { namespace: "home" }],
      ["Session alpha: user asked about refunds", { session_id: "alpha" }],
      ["Agent scout: crawled the pricing page", { agent_id: "scout" }],
    ];
    const { contents } = await seed(
      w,
      scoped.map(([content, scope]) => ({ content, ...scope })),
    );
    for (const [expected, [, filter]] of scoped.entries()) {
      for (const query of [undefined, "friday ferns refunds pricing"]) {
        const body = await context(w, { ...filter, ...(query ? { query } : {}) });
        expect(body.memories_used, JSON.stringify(filter)).toBe(1);
        expect(lineOrder(bodyLines(body.context, 1), contents)).toEqual([expected]);
      }
    }
    const none = await context(w, { namespace: "missing" });
    expect(none).toEqual({ context: "", memories_used: 0, tokens: 0, memories: [] });
    const all = await context(w);
    expect(all.memories_used).toBe(4);
  });

  it("an empty wallet gets an empty block", async () => {
    const w = newWallet();
    expect(await context(w)).toEqual({ context: "", memories_used: 0, tokens: 0, memories: [] });
    expect(await context(w, { query: "anything at all" })).toEqual({
      context: "",
      memories_used: 0,
      tokens: 0,
      memories: [],
    });
    const structured = await context(w, { format: "structured" });
    expect(structured.context).toEqual({ memories: [] });
    expect(structured.memories_used).toBe(0);
    expect(structured.tokens).toBe(countTokens('{"memories":[]}'));
  });

  it("never includes another wallet's or deleted memories", async () => {
    const a = newWallet();
    const b = newWallet();
    await a.storeNew("Wallet A secret: the vault combination is 31-7-22");
    const gone = await a.storeNew("Wallet A deleted: old wifi password hunter2");
    expect((await a.del(`/v1/memories/${gone}`)).status).toBe(200);
    await b.storeNew("Wallet B note: lunch with Sam on Tuesday");

    for (const query of [undefined, "vault combination wifi password lunch"]) {
      const forB = await context(b, query ? { query } : {});
      expect(forB.memories_used).toBe(1);
      expect(forB.context).toContain("Wallet B note");
      expect(forB.context).not.toContain("Wallet A");
      expect(forB.memories.map((m: Json) => m.content)).toEqual([
        "Wallet B note: lunch with Sam on Tuesday",
      ]);
      const forA = await context(a, query ? { query } : {});
      expect(forA.memories_used).toBe(1);
      expect(forA.memories.map((m: Json) => m.id)).not.toContain(gone);
      expect(forA.context).toContain("vault combination");
      expect(forA.context).not.toContain("hunter2");
      expect(forA.context).not.toContain("Wallet B");
    }
    const fresh = newWallet();
    expect((await context(fresh, { query: "vault combination" })).memories_used).toBe(0);
  });

  it("counts an access for memories chosen by a query, not for a query-less block", async () => {
    const w = newWallet();
    const id = await w.storeNew("The boiler service is booked for October");
    await context(w);
    await sleep(300);
    expect((await w.getMemory(id)).access_count).toBe(0);
    await context(w, { query: "boiler service" });
    expect((await w.memoryAfterAccesses(id, 1)).access_count).toBe(1);
  });
});
