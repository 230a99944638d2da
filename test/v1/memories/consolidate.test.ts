import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connectDb } from "../../../worker/db/client";
import { workerTransport } from "../../../worker/db/tcp-socket";
import {
  expectError,
  expectStatus,
  type Json,
  newWallet,
  sorted,
  type Wallet,
} from "../../helpers";

// Cosine similarities under the local embedder: A~C 0.870, A~B 0.835, B~C 0.713, D~E 0.917,
// and about 0 between the groups and with F. No pair differs in a number, date, name or
// negation, which would keep it out of any cluster (see "keeps distinct facts apart").
const A = "The team deploys the billing service every Friday afternoon after the review";
const B = "The team releases the billing service every Friday afternoon after the review";
const C = "The team deploys the billing service each Friday afternoon after code review";
const D = "Ana prefers green tea in the morning and coffee after lunch";
const E = "Ana prefers green tea in the mornings and coffee after lunch breaks";
const F = "The office printer on floor three is broken again";

async function seed(w: Wallet, fields: Record<string, Record<string, unknown>> = {}) {
  const ids: Record<string, string> = {};
  for (const [name, content] of Object.entries({ A, B, C, D, E, F })) {
    ids[name] = await w.store(content, fields[name] ?? {});
  }
  return ids;
}

/** POST /v1/memories/consolidate, which must answer 200; returns the body. */
async function consolidate(w: Wallet, body: Record<string, unknown> = {}): Promise<Json> {
  return expectStatus(await w.post("/v1/memories/consolidate", body), 200);
}

/** The rule-mode seed: importance makes C and D the survivors of [A, B, C] and [D, E]. */
const RULE_FIELDS = {
  A: { importance: 0.4, tags: ["deploy"] },
  C: { importance: 0.9, tags: ["billing"] },
  D: { importance: 0.7 },
  E: { importance: 0.3, tags: ["tea"] },
};

async function relationsFrom(sourceId: string) {
  const { db, close } = connectDb(env.DATABASE_URL, workerTransport(env));
  try {
    const r = await db.execute<{ target_id: string; relation_type: string }>(
      sql`SELECT target_id, relation_type FROM relations WHERE source_id = ${sourceId} ORDER BY target_id`,
    );
    return r.rows;
  } finally {
    await close();
  }
}

describe("POST /v1/memories/consolidate", () => {
  it("dry_run reports pairwise clusters and changes nothing", async () => {
    const w = newWallet();
    const ids = await seed(w);
    const result = await consolidate(w, { dry_run: true });
    expect(result.clusters_found).toBe(2);
    expect(result.memories_merged).toBe(0);
    expect(result.memories_created).toBe(0);
    // The names the public clients read beside the spec's: the TypeScript SDK's merged,
    // dry_run and tokens_used, the CLI's merged_count.
    expect(result).toMatchObject({ merged: 0, merged_count: 0, dry_run: true, tokens_used: 0 });
    const clusters = result.clusters as Array<{
      memory_ids: string[];
      similarity: number;
      merged_into?: string;
    }>;
    expect(clusters.map((c) => sorted(c.memory_ids)).sort()).toEqual(
      [
        sorted([ids.A as string, ids.C as string]),
        sorted([ids.D as string, ids.E as string]),
      ].sort(),
    );
    for (const c of clusters) {
      expect(c.merged_into).toBeUndefined();
      expect(c.similarity).toBeGreaterThanOrEqual(0.85);
    }
    expect((await w.get("/v1/memories/count")).body.count).toBe(6);
  });

  it("needs every pair of a cluster to be similar (no chains), and min_similarity moves the line", async () => {
    const w = newWallet();
    const ids = await seed(w);
    const result = await consolidate(w, { dry_run: true, min_similarity: 0.7 });
    const clusters = result.clusters as Array<{ memory_ids: string[] }>;
    expect(clusters.map((c) => sorted(c.memory_ids)).sort()).toEqual(
      [
        sorted([ids.A as string, ids.B as string, ids.C as string]),
        sorted([ids.D as string, ids.E as string]),
      ].sort(),
    );
    const strict = await consolidate(w, { dry_run: true, min_similarity: 0.9 });
    expect(strict.clusters.map((c: { memory_ids: string[] }) => sorted(c.memory_ids))).toEqual([
      sorted([ids.D as string, ids.E as string]),
    ]);
  });

  it("keeps distinct facts apart: texts that differ in a day, a number or a name never cluster", async () => {
    const w = newWallet();
    const thursday = A.replace("Friday", "Thursday");
    const ids: string[] = [];
    for (const text of [A, thursday, C, D, D.replace("Ana", "Eva")]) ids.push(await w.store(text));
    const [a, th, c, d, eva] = ids;
    const result = await consolidate(w, { dry_run: true, min_similarity: 0.7 });
    const clusters = (result.clusters as Array<{ memory_ids: string[] }>).map((x) =>
      sorted(x.memory_ids),
    );
    // Without the rule: [A, Thursday, C] (pairwise 0.83, 0.74, 0.87) and [D, Eva] (0.85).
    expect(clusters).toEqual([sorted([a as string, c as string])]);
    expect([th, d, eva].every((id) => !clusters.flat().includes(id as string))).toBe(true);
  });

  it("rule mode keeps the most important memory, merges tags, soft-deletes the rest and records supersedes", async () => {
    const w = newWallet();
    const ids = await seed(w, RULE_FIELDS);
    const result = await consolidate(w);
    expect(result).toMatchObject({
      clusters_found: 2,
      memories_merged: 2,
      merged_count: 2,
      merged: 2,
      dry_run: false,
      // rule mode uses no model
      tokens_used: 0,
      memories_created: 0,
    });
    const into = Object.fromEntries(
      (result.clusters as Array<{ memory_ids: string[]; merged_into: string }>).map((c) => [
        c.merged_into,
        c,
      ]),
    );
    expect(Object.keys(into).sort()).toEqual(sorted([ids.C as string, ids.D as string]));

    expectError(await w.get(`/v1/memories/${ids.A}`), 404, "NOT_FOUND");
    expectError(await w.get(`/v1/memories/${ids.E}`), 404, "NOT_FOUND");
    const survivor = await w.get(`/v1/memories/${ids.C}`);
    expect(survivor.body.tags).toEqual(["billing", "deploy"]);
    expect((await w.get(`/v1/memories/${ids.D}`)).body.tags).toEqual(["tea"]);
    expect((await w.get("/v1/memories/count")).body.count).toBe(4);
    expect(await relationsFrom(ids.C as string)).toEqual([
      { target_id: ids.A, relation_type: "supersedes" },
    ]);
  });

  it("rule mode: the survivor's relations list what it absorbed, marked deleted", async () => {
    const w = newWallet();
    const ids = await seed(w, RULE_FIELDS);
    const result = await consolidate(w);
    expect(result.memories_merged).toBe(2);

    const listed = await w.get(`/v1/memories/${ids.C}/relations`);
    expect(listed.status).toBe(200);
    expect(listed.body.relations).toHaveLength(1);
    const [merged] = listed.body.relations;
    expect(merged).toMatchObject({
      source_id: ids.C,
      target_id: ids.A,
      relation_type: "supersedes",
      direction: "outgoing",
      memory: { id: ids.A, content: A, importance: 0.4, namespace: "default", deleted: true },
    });
    expect(Number.isNaN(Date.parse(merged.memory.deleted_at))).toBe(false);
    const fromD = await w.get(`/v1/memories/${ids.D}/relations?direction=outgoing`);
    expect(fromD.body.relations.map((r: { target_id: string }) => r.target_id)).toEqual([ids.E]);
    expect(fromD.body.relations[0].memory).toMatchObject({ content: E, deleted: true });

    // The merged memories themselves stay gone, and another wallet sees none of it.
    expectError(await w.get(`/v1/memories/${ids.A}/relations`), 404, "NOT_FOUND");
    expectError(await newWallet().get(`/v1/memories/${ids.C}/relations`), 404, "NOT_FOUND");
  });

  it("never deletes pinned or immutable memories", async () => {
    const w = newWallet();
    const ids = await seed(w, {
      A: { importance: 0.9 },
      C: { importance: 0.2, pinned: true },
      D: { importance: 0.9 },
      E: { importance: 0.1, immutable: true },
    });
    const result = await consolidate(w);
    expect(result.clusters_found).toBe(2);
    expect(result.memories_merged).toBe(0);
    expect((await w.get(`/v1/memories/${ids.C}`)).status).toBe(200);
    expect((await w.get(`/v1/memories/${ids.E}`)).status).toBe(200);
  });

  it("only consolidates inside the requested namespace", async () => {
    const w = newWallet();
    await w.store(A, { namespace: "work" });
    await w.store(C, { namespace: "work" });
    await w.store(D, { namespace: "home" });
    await w.store(E, { namespace: "home" });
    const result = await consolidate(w, { namespace: "home" });
    expect(result).toMatchObject({ clusters_found: 1, memories_merged: 1 });
    expect((await w.get("/v1/memories/count?namespace=work")).body.count).toBe(2);
  });

  it("llm mode synthesises a memory per cluster with derived_from relations and keeps the members", async () => {
    const w = newWallet();
    const ids = await seed(w, { C: { importance: 0.8, tags: ["billing"] } });
    const result = await consolidate(w, { mode: "llm" });
    expect(result).toMatchObject({
      clusters_found: 2,
      memories_created: 2,
      memories_merged: 0,
      merged: 0,
      dry_run: false,
    });
    // The provider's tokens for two syntheses, and the embedding of the two new memories.
    expect(result.tokens_used).toBeGreaterThan(0);
    const cluster = (result.clusters as Array<{ memory_ids: string[]; merged_into: string }>).find(
      (c) => c.memory_ids.includes(ids.C as string),
    );
    expect(cluster).toBeDefined();
    const created = await w.get(`/v1/memories/${cluster?.merged_into}`);
    expect(created.status).toBe(200);
    expect(created.body.importance).toBe(0.8);
    expect(created.body.tags).toEqual(["billing"]);
    expect(created.body.content.length).toBeGreaterThan(0);
    const rels = await w.get(`/v1/memories/${cluster?.merged_into}/relations?direction=outgoing`);
    expect(
      rels.body.relations
        .map((r: { target_id: string; relation_type: string }) => [r.target_id, r.relation_type])
        .sort(),
    ).toEqual(
      [
        [ids.A, "derived_from"],
        [ids.C, "derived_from"],
      ].sort(),
    );
    expect((await w.get("/v1/memories/count")).body.count).toBe(8);
  });

  it("never touches another wallet's memories", async () => {
    const a = newWallet();
    const b = newWallet();
    await seed(a);
    await b.store(A);
    const result = await consolidate(b);
    expect(result.clusters_found).toBe(0);
    expect((await a.get("/v1/memories/count")).body.count).toBe(6);
  });

  it("rejects out-of-range min_similarity and unknown modes with 422", async () => {
    const w = newWallet();
    for (const body of [
      { min_similarity: 0.49 },
      { min_similarity: 1.01 },
      { mode: "magic" },
      { dry_run: "yes" },
    ]) {
      expectError(await w.post("/v1/memories/consolidate", body), 422, "VALIDATION_ERROR");
    }
  });
});
