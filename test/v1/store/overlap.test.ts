/**
 * Stores that overlap. A store probes for duplicates and then writes in one statement that
 * claims the namespace's version (worker/memories/namespace-version.ts): a store that loses the
 * claim to a concurrent one wrote nothing and runs again under the namespace's lock. These
 * tests hold whichever store wins, both ways: one memory per text, every item's fields kept, a merge
 * that never overwrites a concurrent PATCH, and wallets and namespaces apart.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  expectStatus,
  newWallet as newWalletOf,
  uniqueText,
  type WorkerFetch,
} from "../../helpers";
import { workerWith } from "../../worker-with";

/**
 * Both ways of probing, on either database: one statement for the whole batch (a server), and
 * a statement per 10 items (Env.DATABASE_SERIAL, the embedded database), whose write claims the
 * versions the first of them read.
 */
const ways: Array<[string, WorkerFetch | undefined]> = [
  ["as configured", undefined],
  [
    env.DATABASE_SERIAL === "on" ? "probed in one statement" : "probed 10 items a statement",
    workerWith({ ...env, DATABASE_SERIAL: env.DATABASE_SERIAL === "on" ? "off" : "on" }),
  ],
];

describe.each(ways)("overlapping stores, %s", (_way, workerFetch) => {
  const newWallet = () => newWalletOf(workerFetch);
  it("ten stores of one text at once make one memory, with every store's tag", async () => {
    const w = newWallet();
    const text = uniqueText("The standup moves to 9:30 on Mondays");
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => w.post("/v1/store", { content: text, tags: [`t${i}`] })),
    );
    const bodies = answers.map((r) => expectStatus(r, 201));
    const ids = new Set(bodies.map((b) => b.id));
    expect(ids.size).toBe(1);
    expect(bodies.filter((b) => b.deduplicated === false)).toHaveLength(1);
    expect(await w.memoryCount()).toBe(1);
    const [id] = [...ids];
    const memory = await w.getOk(`/v1/memories/${id}`);
    expect([...memory.tags].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `t${i}`).sort());
  });

  it("overlapping batches store each text once and answer every item", async () => {
    const w = newWallet();
    const shared = Array.from({ length: 5 }, (_, i) =>
      uniqueText(`shared fact ${i} about the fleet`),
    );
    const batches = Array.from({ length: 4 }, (_, b) => [
      ...shared.map((content) => ({ content })),
      { content: uniqueText(`batch ${b} has its own fact about cargo`) },
    ]);
    const answers = await Promise.all(
      batches.map((memories) => w.post("/v1/store/batch", { memories })),
    );
    const bodies = answers.map((r) => expectStatus(r, 201));
    for (const body of bodies) expect(body.ids).toHaveLength(6);
    // Each shared text has one id in every batch's answer.
    for (let i = 0; i < shared.length; i++) {
      expect(new Set(bodies.map((b) => b.ids[i])).size).toBe(1);
    }
    expect(await w.memoryCount()).toBe(5 + 4);
    const listed = (await w.getOk("/v1/memories?limit=100")).memories.map(
      (m: { content: string }) => m.content,
    );
    expect([...listed].sort()).toEqual([...shared, ...batches.map((b) => b[5]?.content)].sort());
  });

  it("overlapping batches longer than one probe statement, over three namespaces, store each text once", async () => {
    const w = newWallet();
    const namespaces = ["alpha", "beta", "gamma"];
    const shared = Array.from({ length: 24 }, (_, i) => ({
      content: uniqueText(`shared note ${i} about the harbour's tide tables`),
      namespace: namespaces[i % 3],
    }));
    // Each batch holds the shared texts in another order, so the same text is probed by
    // different statements of different batches, and one text of its own.
    const batches = Array.from({ length: 4 }, (_, b) => [
      ...shared.map((_, i) => shared[(i * (2 * b + 1) + b) % shared.length]),
      { content: uniqueText(`batch ${b}'s own note`), namespace: namespaces[b % 3] },
    ]);
    const answers = await Promise.all(
      batches.map((memories) => w.post("/v1/store/batch", { memories })),
    );
    const bodies = answers.map((r) => expectStatus(r, 201));
    const idOf = new Map<string, Set<string>>();
    batches.forEach((memories, b) => {
      memories.forEach((m, i) => {
        const ids = idOf.get(m?.content ?? "") ?? new Set<string>();
        ids.add(bodies[b]?.ids[i]);
        idOf.set(m?.content ?? "", ids);
      });
    });
    for (const { content } of shared) expect(idOf.get(content)?.size).toBe(1);
    expect(await w.memoryCount()).toBe(24 + 4);
    for (const ns of namespaces) {
      const listed = await w.getOk(`/v1/memories?namespace=${ns}&limit=100`);
      expect(listed.memories).toHaveLength(
        8 + batches.filter((b) => b[24]?.namespace === ns).length,
      );
    }
  });

  it("a merge never overwrites a PATCH that lands between its probe and its write", async () => {
    const w = newWallet();
    for (let round = 0; round < 6; round++) {
      const text = uniqueText(`The release train leaves on Thursdays, round ${round}`);
      const id = await w.store(text, { tags: ["original"] });
      const [patched, merged] = await Promise.all([
        w.patch(`/v1/memories/${id}`, { tags: ["patched"] }),
        w.post("/v1/store", { content: text, tags: ["merged"] }),
      ]);
      expectStatus(patched, 200);
      expectStatus(merged, 201);
      const memory = await w.getOk(`/v1/memories/${id}`);
      // PATCH first: the merge adds its tag to the patched ones. Merge first: PATCH replaces.
      // Never the merge's union computed from the tags before the PATCH.
      expect([["patched", "merged"], ["patched"]]).toContainEqual(memory.tags);
    }
  });

  it("keeps two wallets' and two namespaces' overlapping stores apart", async () => {
    const [a, b] = [newWallet(), newWallet()];
    const text = uniqueText("The office plants are watered on Fridays");
    const answers = await Promise.all([
      ...[a, b].flatMap((w) =>
        ["default", "home"].flatMap((namespace) =>
          [0, 1, 2].map(() => w.post("/v1/store", { content: text, namespace })),
        ),
      ),
    ]);
    for (const r of answers) expectStatus(r, 201);
    for (const w of [a, b]) {
      expect(await w.memoryCount("?namespace=default")).toBe(1);
      expect(await w.memoryCount("?namespace=home")).toBe(1);
    }
    const idsOf = (w: typeof a) =>
      w.getOk("/v1/memories?limit=10").then((p) => p.memories.map((m: { id: string }) => m.id));
    const [idsA, idsB] = await Promise.all([idsOf(a), idsOf(b)]);
    expect(idsA.filter((id: string) => idsB.includes(id))).toEqual([]);
  });
});
